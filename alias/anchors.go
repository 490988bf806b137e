package alias

import (
	"go/ast"
	"go/token"
)

// anchors maps the position SSA records for an instruction (a selector's
// Sel, an index's Lbrack, a call's Lparen, ...) to the start of the source
// expression it belongs to: the position convention shared with the
// instrumenter (see doc.go). Only the module's files are indexed, so a
// position is the module's code exactly when its file is in files.
type anchors struct {
	fset  *token.FileSet
	files map[*token.File]bool
	m     map[token.Pos]token.Pos
}

func newAnchors(fset *token.FileSet) *anchors {
	return &anchors{fset: fset, files: map[*token.File]bool{}, m: map[token.Pos]token.Pos{}}
}

// addFile indexes one syntax tree of the module.
func (x *anchors) addFile(f *ast.File) {
	tf := x.fset.File(f.Pos())
	if tf == nil || x.files[tf] {
		return
	}
	x.files[tf] = true
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			x.m[n.Sel.Pos()] = n.X.Pos()
		case *ast.IndexExpr:
			x.m[n.Lbrack] = n.X.Pos()
		case *ast.IndexListExpr:
			x.m[n.Lbrack] = n.X.Pos()
		case *ast.SliceExpr:
			x.m[n.Lbrack] = n.X.Pos()
		case *ast.UnaryExpr:
			if lit, ok := ast.Unparen(n.X).(*ast.CompositeLit); ok && n.Op == token.AND {
				x.m[lit.Lbrace] = n.Pos() // &T{...} starts at '&'
			}
		case *ast.CompositeLit:
			if _, done := x.m[n.Lbrace]; !done {
				x.m[n.Lbrace] = n.Pos()
			}
		case *ast.CallExpr:
			x.m[n.Lparen] = n.Pos()
		case *ast.RangeStmt:
			x.m[n.For] = n.X.Pos()
		case *ast.SendStmt:
			x.m[n.Arrow] = n.Chan.Pos()
		case *ast.KeyValueExpr:
			x.m[n.Colon] = n.Key.Pos()
		}
		return true
	})
}

// inModule reports whether p lies in one of the module's files.
func (x *anchors) inModule(p token.Pos) bool {
	if !p.IsValid() {
		return false
	}
	tf := x.fset.File(p)
	return tf != nil && x.files[tf]
}

// start maps an SSA position to the start of its source expression.
func (x *anchors) start(p token.Pos) token.Pos {
	if s, ok := x.m[p]; ok {
		return s
	}
	return p
}
