package instrument

import (
	"go/ast"
	"strings"
)

// clockReads are the functions of package time that read the clock,
// rewritten into the runtime's functions of the same name: inside an
// execution each reading is later than the one before (pct/clock.go).
var clockReads = map[string]bool{"Now": true, "Since": true, "Until": true}

// clockCall rewrites time.Now(), time.Since(t) and time.Until(t) into the
// runtime's Now, Since and Until. It reports false for any other call.
// Function values (nowFunc = time.Now) keep reading the bubble's clock.
func (r *fileRewriter) clockCall(c *ast.CallExpr) (string, bool) {
	fun := ast.Unparen(c.Fun)
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" || !clockReads[fn.Name()] {
		return "", false
	}
	r.keep[r.keepName(fun)] = true // the package may have no other use left
	return r.rt(fn.Name()) + "(" + strings.Join(r.exprs(c.Args), ", ") + ")", true
}
