package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"regexp"
	"strings"

	"github.com/gopct/gopct/pct"
)

// runtimeFiles returns the runtime's source files to place in the overlay:
// pct.Source minus source.go and tests.
//
// Assembly cannot be used: the go command runs the assembler inside the
// package directory, which exists only in the overlay. So *.s files are
// dropped, with the Go files declaring their body-less stubs, and for each
// dropped function the pure-Go file defining it (under the opposite build
// constraint) is kept with its constraint removed.
func runtimeFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(pct.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if path == "source.go" || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := fs.ReadFile(pct.Source, path)
		files[path] = data
		return err
	})
	if err != nil {
		return nil, err
	}
	return dropAssembly(files)
}

var buildLine = regexp.MustCompile(`(?m)^//go:build .*$`)

func dropAssembly(files map[string][]byte) (map[string][]byte, error) {
	hasAsm := false
	for name := range files {
		if strings.HasSuffix(name, ".s") {
			hasAsm = true
			delete(files, name)
		}
	}
	if !hasAsm {
		return files, nil
	}
	fset := token.NewFileSet()
	stubs := map[string]bool{}
	bodies := map[string][]string{} // function name -> files defining it with a body
	for name, data := range files {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, data, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			if fd.Body == nil {
				stubs[fd.Name.Name] = true
				delete(files, name)
			} else {
				bodies[fd.Name.Name] = append(bodies[fd.Name.Name], name)
			}
		}
	}
	for fn := range stubs {
		for _, name := range bodies[fn] {
			if data, ok := files[name]; ok {
				files[name] = buildLine.ReplaceAll(data, nil)
			}
		}
	}
	return files, nil
}
