package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

// goStmt is a go statement's line and the name of the function it calls
// when that is not a closure (the last selector: method or function name).
type goStmt struct {
	Line   int    `json:"line"`
	Callee string `json:"callee"`
}

// fileFuncs lists a file's top-level functions and go statements.
type fileFuncs struct {
	Funcs []funcRange `json:"funcs"`
	Gos   []goStmt    `json:"gos"`
}

// funcRange is a top-level function's name as Go's tracebacks print it
// (F, T.M or (*T).M) and its first and last line.
type funcRange struct {
	Name  string `json:"name"`
	First int    `json:"first"`
	Last  int    `json:"last"`
}

// printFuncs writes {file: [funcRange...]} for the kernels: the report maps
// the place where gopct saw a goroutine stuck to the function Go's own leak
// test names (closures take their enclosing function's name).
func printFuncs(src string) error {
	files, err := kernelFiles(src)
	if err != nil {
		return err
	}
	all := map[string]*fileFuncs{}
	fset := token.NewFileSet()
	for _, path := range files {
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ff := &fileFuncs{}
		all[filepath.Base(path)] = ff
		for _, decl := range file.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				ff.Funcs = append(ff.Funcs, funcRange{
					Name:  tracebackName(fn),
					First: fset.Position(fn.Pos()).Line,
					Last:  fset.Position(fn.End()).Line,
				})
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				ff.Gos = append(ff.Gos, goStmt{Line: fset.Position(g.Pos()).Line, Callee: calleeName(g.Call.Fun)})
			}
			return true
		})
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(all); err != nil {
		return fmt.Errorf("funcs: %v", err)
	}
	return nil
}

func tracebackName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	switch t := fn.Recv.List[0].Type.(type) {
	case *ast.StarExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			return "(*" + id.Name + ")." + fn.Name.Name
		}
	case *ast.Ident:
		return t.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

func calleeName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}
