package instrument

import (
	"go/ast"
	"go/types"
	"strings"
)

// clockReads are the functions of package time that read the clock,
// rewritten into the runtime's functions of the same name: inside an
// execution each reading is later than the one before (pct/clock.go).
var clockReads = map[string]bool{"Now": true, "Since": true, "Until": true}

// clockCall rewrites time.Now(), time.Since(t) and time.Until(t) into the
// runtime's Now, Since and Until. It reports false for any other call.
func (r *fileRewriter) clockCall(c *ast.CallExpr) (string, bool) {
	fun := ast.Unparen(c.Fun)
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" || !clockReads[fn.Name()] {
		return "", false
	}
	r.keep[r.keepName(fun)] = true // the package may have no other use left
	return r.rt(fn.Name()) + "(" + strings.Join(r.exprs(c.Args), ", ") + ")", true
}

// clockValue renders time.Now, time.Since or time.Until used as a value
// (var timeNow = time.Now, a clock injected for tests as many libraries
// do) as the runtime's function of the same name, so that its readings are
// ordered with the direct calls' (a test's time.Now() taken before a
// timeNow() stamp read later than the stamp: a false failure found in
// review). It returns "" for any other selector.
func (r *fileRewriter) clockValue(e *ast.SelectorExpr) string {
	fn, ok := r.info.Uses[e.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" || !clockReads[fn.Name()] {
		return ""
	}
	if fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	r.keep[r.keepName(e)] = true
	return r.rt(fn.Name())
}
