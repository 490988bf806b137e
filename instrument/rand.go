package instrument

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/gopct/gopct/pct"
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

// randValue renders a top-level function of math/rand or math/rand/v2 used
// as a value (f := rand.Intn, sort by rand.Float64) as a function that
// draws from the execution's source each time it is called: a method value
// such as Rand1().Intn would bind the source of the moment it was taken (the
// global one for a package-level variable set at init). v2's generic N
// becomes RandN. It returns "" for any other selector.
func (r *fileRewriter) randValue(e *ast.SelectorExpr) string {
	fn, ok := r.info.Uses[e.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	source, ok := randSources[fn.Pkg().Path()]
	if !ok {
		return ""
	}
	if fn.Name() == "N" && source == "Rand2" {
		r.keep[r.keepName(e)] = true
		return r.rt("RandN")
	}
	sig := fn.Type().(*types.Signature)
	if fn.Name() == "Seed" || sig.TypeParams().Len() > 0 || sig.Variadic() || !isRandMethod(fn) {
		return ""
	}
	var params, args []string
	for i := range sig.Params().Len() {
		t := types.TypeString(sig.Params().At(i).Type(), nil)
		if strings.Contains(t, ".") {
			return "" // a named type of another package: not rendered here
		}
		name := "p" + strconv.Itoa(i)
		params = append(params, name+" "+t)
		args = append(args, name)
	}
	results := types.TypeString(sig.Results(), nil)
	if strings.Contains(results, ".") {
		return ""
	}
	call := r.rt(source) + "()." + fn.Name() + "(" + strings.Join(args, ", ") + ")"
	if sig.Results().Len() > 0 {
		call = "return " + call
	}
	r.keep[r.keepName(e)] = true
	return "func(" + strings.Join(params, ", ") + ") " + results + " { " + call + " }"
}

// seedSources are the source constructors of math/rand and math/rand/v2
// whose seed arguments timeSeeds controls.
var seedSources = map[string]bool{"math/rand.NewSource": true, "math/rand/v2.NewPCG": true}

// timeSeeds rewrites the seed arguments of rand.NewSource(seed) and
// randv2.NewPCG(seed1, seed2) that read the clock (time.Now().UnixNano())
// into TimeSeed(seed): inside an execution the clock is fake and the seed
// already deterministic, but a source made while the package initialises
// (a package-level variable) would be seeded with real time, and a replay
// would draw other numbers. It reports false for any other call.
func (r *fileRewriter) timeSeeds(c *ast.CallExpr) (string, bool) {
	fn, sel := r.callee(ast.Unparen(c.Fun))
	if fn == nil || sel != nil || fn.Pkg() == nil || !seedSources[fn.Pkg().Path()+"."+fn.Name()] {
		return "", false
	}
	args := r.exprs(c.Args)
	changed := false
	for i, a := range c.Args {
		if r.readsClock(a) {
			args[i] = r.rt("TimeSeed") + "(" + args[i] + ")"
			changed = true
		}
	}
	if !changed {
		return "", false
	}
	return r.text(c.Fun) + "(" + strings.Join(args, ", ") + ")", true
}

// readsClock reports whether e calls time.Now.
func (r *fileRewriter) readsClock(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if fn, _ := r.callee(ast.Unparen(c.Fun)); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Now" {
				found = true
			}
		}
		return !found
	})
	return found
}

// mapsIterators maps the iterator constructors of package maps to the
// runtime's versions, which visit the map in a deterministic order
// (pct/mapsiter.go).
var mapsIterators = map[string]string{"Keys": "MapsKeys", "Values": "MapsValues", "All": "MapsAll"}

// mapsIterCall rewrites maps.Keys(m), maps.Values(m) and maps.All(m) into
// the runtime's iterators with a map-read site at m. It reports false for
// any other call.
func (r *fileRewriter) mapsIterCall(c *ast.CallExpr) (string, bool) {
	fun, targs := ast.Unparen(c.Fun), ""
	if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun, targs = ast.Unparen(ix.X), "["+strings.Join(r.exprs(ix.Indices), ", ")+"]"
	} else if ix, ok := fun.(*ast.IndexExpr); ok {
		fun, targs = ast.Unparen(ix.X), "["+r.text(ix.Index)+"]"
	}
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Pkg().Path() != "maps" || len(c.Args) != 1 {
		return "", false
	}
	name, ok := mapsIterators[fn.Name()]
	if !ok {
		return "", false
	}
	qual, _, ok := strings.Cut(r.text(fun), ".")
	if !ok {
		return "", false // a dot import: no qualifier to keep the import by
	}
	// The package may have no other use left, and all its functions are
	// generic (keepName finds no plain one): keep it by an instance.
	r.keep[qual+".Keys[map[int]int]"] = true
	m := c.Args[0]
	return r.rt(name) + targs + "(" + r.site(pct.KindMapRead, m) + ", " + r.expr(m) + ")", true
}
