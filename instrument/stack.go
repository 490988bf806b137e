package instrument

import (
	"go/ast"
	"go/types"
	"strings"
)

// goroutineViews are the functions of package runtime that look at every
// goroutine of the process, rewritten into the runtime's functions of the
// same name, which inside an execution show what go test would show, not
// gopct's goroutines (pct/stackdump.go, pct/numgoroutine.go): runtime.Stack
// (goleak's Find read gopct's goroutines as leaks) and runtime.NumGoroutine
// (a test comparing the count with go test's, or with its own count at its
// start, failed under gopct only).
var goroutineViews = map[string]bool{"Stack": true, "NumGoroutine": true}

// stackCall rewrites runtime.Stack(buf, all) and runtime.NumGoroutine()
// into the runtime's. It reports false for any other call.
func (r *fileRewriter) stackCall(c *ast.CallExpr) (string, bool) {
	fun := ast.Unparen(c.Fun)
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Pkg().Path() != "runtime" || !goroutineViews[fn.Name()] {
		return "", false
	}
	r.keep[r.keepName(fun)] = true // the package may have no other use left
	return r.rt(fn.Name()) + "(" + strings.Join(r.exprs(c.Args), ", ") + ")", true
}

// stackValue renders runtime.Stack or runtime.NumGoroutine used as a value
// (a leak checker's `var numGoroutine = runtime.NumGoroutine`) as the
// runtime's function of the same name. It returns "" for any other
// selector.
func (r *fileRewriter) stackValue(e *ast.SelectorExpr) string {
	fn, ok := r.info.Uses[e.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "runtime" || !goroutineViews[fn.Name()] {
		return ""
	}
	if fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	r.keep[r.keepName(e)] = true
	return r.rt(fn.Name())
}
