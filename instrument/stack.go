package instrument

import (
	"go/ast"
	"strings"
)

// stackCall rewrites runtime.Stack(buf, all) into the runtime's Stack: a
// dump of every goroutine taken inside an execution then shows the
// goroutines and frames go test would show, not gopct's (pct/stackdump.go;
// goleak's Find read gopct's goroutines as leaks). It reports false for
// any other call.
func (r *fileRewriter) stackCall(c *ast.CallExpr) (string, bool) {
	fun := ast.Unparen(c.Fun)
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Pkg().Path() != "runtime" || fn.Name() != "Stack" {
		return "", false
	}
	r.keep[r.keepName(fun)] = true // the package may have no other use left
	return r.rt("Stack") + "(" + strings.Join(r.exprs(c.Args), ", ") + ")", true
}
