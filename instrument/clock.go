package instrument

import (
	"go/ast"
	"go/types"
	"strconv"
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

// timerValues are the functions of packages time and context that start
// timers (and AfterFunc callbacks), rewritten when used as values, as
// injected clocks use them (`var afterFunc = time.AfterFunc`).
var timerValues = map[string]bool{
	"time.Sleep": true, "time.After": true, "time.NewTimer": true, "time.AfterFunc": true,
	"time.Tick": true, "time.NewTicker": true, "context.AfterFunc": true,
}

// timerValue renders such a function used as a value as a closure that
// calls its runtime replacement with a site of its own: its timers are
// then the scheduler's, and an AfterFunc callback runs as a managed
// goroutine instead of one gopct does not see (pct/external.go). The
// signature's types all belong to the function's package, so they are
// written with the selector's own package name. It returns "" for any
// other selector.
func (r *fileRewriter) timerValue(e *ast.SelectorExpr) string {
	fn, ok := r.info.Uses[e.Sel].(*types.Func)
	if !ok || !timerValues[funcKey(fn)] {
		return ""
	}
	pkgName, ok := e.X.(*ast.Ident)
	if !ok {
		return ""
	}
	name := ops[funcKey(fn)].fn
	sig := fn.Type().(*types.Signature)
	qual := func(p *types.Package) string {
		if p == fn.Pkg() {
			return pkgName.Name
		}
		return p.Name() // not reached: the types are the function's package's
	}
	var params, args []string
	for i := range sig.Params().Len() {
		p := "p" + strconv.Itoa(i)
		params = append(params, p+" "+types.TypeString(sig.Params().At(i).Type(), qual))
		args = append(args, p)
	}
	call := r.rt(name) + "(" + strings.Join(append([]string{r.site(ops[funcKey(fn)].kind, e)}, args...), ", ") + ")"
	r.keep[r.keepName(e)] = true
	results := types.TypeString(sig.Results(), qual)
	if sig.Results().Len() == 0 {
		return "func(" + strings.Join(params, ", ") + ") { " + call + " }"
	}
	return "func(" + strings.Join(params, ", ") + ") " + results + " { return " + call + " }"
}
