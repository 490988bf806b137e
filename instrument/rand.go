package instrument

import (
	"go/ast"
	"go/types"
	"strings"
)

// randSources maps the packages whose top-level functions draw from a
// process-wide random source to the runtime function that returns the
// execution's own source (pct/globalrand.go).
var randSources = map[string]string{"math/rand": "Rand1", "math/rand/v2": "Rand2"}

// randCall rewrites a call of a top-level function of math/rand or
// math/rand/v2 into the same method on the execution's source:
// rand.Intn(n) becomes Rand1().Intn(n), and v2's generic rand.N(d) becomes
// RandN(d). rand.Seed keeps going to the global source (a no-op since Go
// 1.24). It reports false for any other call.
func (r *fileRewriter) randCall(c *ast.CallExpr) (string, bool) {
	fun, targs := ast.Unparen(c.Fun), ""
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun, targs = ast.Unparen(ix.X), "["+r.text(ix.Index)+"]"
	}
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return "", false
	}
	source, ok := randSources[fn.Pkg().Path()]
	if !ok {
		return "", false
	}
	var head string
	switch {
	case fn.Name() == "N" && source == "Rand2":
		head = r.rt("RandN") + targs
	case fn.Name() != "Seed" && targs == "" && isRandMethod(fn):
		head = r.rt(source) + "()." + fn.Name()
	default:
		return "", false
	}
	r.keep[r.keepName(fun)] = true // the package may have no other use left
	return head + "(" + strings.Join(r.exprs(c.Args), ", ") + ")", true
}

// isRandMethod reports whether the package of fn has a method of fn's name
// on *Rand (math/rand's and math/rand/v2's top-level functions mirror
// Rand's methods).
func isRandMethod(fn *types.Func) bool {
	t, ok := fn.Pkg().Scope().Lookup("Rand").(*types.TypeName)
	if !ok {
		return false
	}
	m, _, _ := types.LookupFieldOrMethod(types.NewPointer(t.Type()), false, fn.Pkg(), fn.Name())
	_, isFunc := m.(*types.Func)
	return isFunc
}
