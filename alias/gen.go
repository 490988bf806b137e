package alias

import (
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// analysis is the state of one points-to solve.
type analysis struct {
	prog *ssa.Program
	lay  *layouts
	s    *solver

	objs        []*object
	cellObj     []int32 // cell id -> object index
	funcObjs    map[*ssa.Function]*object
	globalObjs  map[*ssa.Global]*object
	scalarBoxes typeutil.Map

	values  map[ssa.Value]nodeID
	results map[*ssa.Function]nodeID
	reached map[*ssa.Function]bool
	pending []*ssa.Function

	havoc, panicNode nodeID
	havocked         map[int32]bool

	methods typeutil.Map // types.Type -> map[string]*ssa.Function
	impls   typeutil.Map // types.Type -> map[*types.Interface]bool

	holdsCache typeutil.Map // object type -> map[types.Type]bool

	objVar []VarID // object index -> variable of Q, or -1 (set after solving)

	owners []debugOwner // debug only: node -> what it belongs to

	genTime time.Duration // spent generating constraints

	deadline time.Time // zero: none (Options.Deadline)
	late     bool      // the solve stopped at the deadline

	inModule    func(token.Pos) bool // is this position the module's code?
	curInModule bool                 // the function being generated is the module's

	// onFunc is called once for every function whose constraints are
	// generated (used to collect access sites of the module's code).
	onFunc func(fn *ssa.Function)
}

func newAnalysis(prog *ssa.Program) *analysis {
	a := &analysis{
		prog:       prog,
		lay:        &layouts{},
		s:          newSolver(),
		funcObjs:   map[*ssa.Function]*object{},
		globalObjs: map[*ssa.Global]*object{},
		values:     map[ssa.Value]nodeID{},
		results:    map[*ssa.Function]nodeID{},
		reached:    map[*ssa.Function]bool{},
		havocked:   map[int32]bool{},
	}
	a.havoc = a.s.newNodes(1)
	a.panicNode = a.s.newNodes(1)
	a.addCons(a.havoc, havocC{})
	return a
}

// summarisedPkgs are not analysed: calls into them go through the havoc
// node. They are the packages whose Go code defeats a typed analysis
// (unsafe type punning, runtime-internal data structures) or has no body.
var summarisedPkgs = map[string]bool{
	"runtime": true, "reflect": true, "internal/reflectlite": true,
	"unsafe": true, "internal/abi": true,
	"internal/race": true, "internal/bytealg": true, "internal/runtime": true,
}

func pkgPathOf(fn *ssa.Function) string {
	for f := fn; f != nil; f = f.Parent() {
		if obj := f.Object(); obj != nil && obj.Pkg() != nil {
			return obj.Pkg().Path()
		}
		if f.Pkg != nil {
			return f.Pkg.Pkg.Path()
		}
	}
	return ""
}

func isSummarisedPkg(path string) bool {
	if summarisedPkgs[path] {
		return true
	}
	return strings.HasPrefix(path, "internal/runtime/") || strings.HasPrefix(path, "runtime/internal/")
}

func (a *analysis) summarised(fn *ssa.Function) bool {
	return fn.Blocks == nil || isSummarisedPkg(pkgPathOf(fn))
}

// reach marks fn reachable; its constraints are generated before the next
// worklist step.
func (a *analysis) reach(fn *ssa.Function) {
	if !a.reached[fn] {
		a.reached[fn] = true
		a.pending = append(a.pending, fn)
	}
}

func (a *analysis) genPending() {
	if len(a.pending) == 0 {
		return
	}
	t0 := time.Now()
	defer func() { a.genTime += time.Since(t0) }()
	for len(a.pending) > 0 {
		fn := a.pending[len(a.pending)-1]
		a.pending = a.pending[:len(a.pending)-1]
		if a.summarised(fn) {
			continue
		}
		a.curInModule = a.fnInModule(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				a.genInstr(instr)
			}
		}
		if a.onFunc != nil {
			a.onFunc(fn)
		}
	}
}

// fnInModule reports whether fn's code is the module's (instances of
// generic functions report their origin's position).
func (a *analysis) fnInModule(fn *ssa.Function) bool {
	if a.inModule == nil {
		return true
	}
	if o := fn.Origin(); o != nil {
		return a.inModule(o.Pos())
	}
	return a.inModule(fn.Pos())
}

// val returns the first cell of v's block (noNode if v holds no pointers).
func (a *analysis) val(v ssa.Value) nodeID {
	if n, ok := a.values[v]; ok {
		return n
	}
	var n nodeID
	switch v := v.(type) {
	case *ssa.Const, *ssa.Builtin:
		// nil or scalar constants point nowhere.
	case *ssa.Global:
		n = a.s.newNodes(1)
		a.s.addPts(n, a.globalObj(v).cell)
	case *ssa.Function:
		n = a.s.newNodes(1)
		a.s.addPts(n, a.funcObj(v).cell)
	default:
		if size := a.lay.size(v.Type()); size > 0 {
			n = a.s.newNodes(size)
		}
	}
	a.noteOwner(n, max(1, a.lay.size(v.Type())), debugOwner{v: v})
	a.values[v] = n
	return n
}

func resultType(sig *types.Signature) types.Type {
	if sig.Results().Len() == 1 {
		return sig.Results().At(0).Type()
	}
	return sig.Results()
}

// resultNode is the block holding fn's results.
func (a *analysis) resultNode(fn *ssa.Function) nodeID {
	if n, ok := a.results[fn]; ok {
		return n
	}
	var n nodeID
	if size := a.lay.size(resultType(fn.Signature)); size > 0 {
		n = a.s.newNodes(size)
		a.noteOwner(n, size, debugOwner{fn: fn})
	}
	a.results[fn] = n
	return n
}

func (a *analysis) copyBlock(src, dst nodeID, size int) {
	if src == noNode || dst == noNode {
		return
	}
	for i := range size {
		a.s.addCopy(src+nodeID(i), dst+nodeID(i))
	}
}

func (a *analysis) copyVal(src, dst ssa.Value) {
	a.copyBlock(a.val(src), a.val(dst), min(a.lay.size(src.Type()), a.lay.size(dst.Type())))
}

func (a *analysis) load(ptr ssa.Value, dst nodeID, off, size int) {
	if dst != noNode && size > 0 {
		a.addCons(a.val(ptr), &loadC{dst: dst, off: off, size: size})
	}
}

func (a *analysis) store(ptr ssa.Value, src nodeID, off, size int) {
	if src != noNode && size > 0 {
		a.addCons(a.val(ptr), &storeC{src: src, off: off, size: size})
	}
}

// havocIn sends every cell of a block to the havoc node; havocOut the reverse.
func (a *analysis) havocIn(n nodeID, size int) {
	for i := range size {
		a.s.addCopy(n+nodeID(i), a.havoc)
	}
}

// havocOut is type-filtered: a cell of static type T receives only the
// havoc pointees that a T can point to (see fits), so that unknown code
// does not pollute every value downstream of it.
func (a *analysis) havocOut(n nodeID, size int, t types.Type) {
	if n == noNode || size == 0 {
		return
	}
	leaves := a.lay.leaves(t)
	for i := range size {
		if i >= len(leaves) || isUnsafePointer(leaves[i]) {
			// An unsafe.Pointer from unknown code (reflect.Value's ptr,
			// runtime internals) is only handed back to unknown code by the
			// analysed code: giving it every havoc pointee would flood the
			// whole of reflect-using code for nothing (see doc.go).
			continue
		}
		a.addCons(a.havoc, &filterC{dst: n + nodeID(i), typ: leaves[i]})
	}
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// havocArg reports whether an argument of type t can let unknown code reach
// pointers: a pointer to pointer-free memory (*int32, *uint64 of the
// runtime's semaphores and atomics) cannot.
func (a *analysis) havocArg(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return a.lay.size(p.Elem()) > 0
	}
	return a.lay.size(t) > 0
}

// havocCall models fn being called by summarised code with unknown
// arguments: every parameter may hold anything havoc holds.
func (a *analysis) havocCall(fn *ssa.Function) {
	if a.summarised(fn) {
		return
	}
	a.reach(fn)
	for _, p := range fn.Params {
		a.havocOut(a.val(p), a.lay.size(p.Type()), p.Type())
	}
	a.havocIn(a.resultNode(fn), a.lay.size(resultType(fn.Signature)))
}

// connect binds a call's receiver block (invoke mode; recvSize < 0 means no
// receiver), arguments and result to callee's parameters and results.
func (a *analysis) connect(callee *ssa.Function, recv nodeID, recvSize int, args []ssa.Value, res ssa.Value) {
	if a.summary(callee, args, res) {
		return
	}
	if a.summarised(callee) {
		a.havocIn(recv, max(recvSize, 0))
		for _, arg := range args {
			if a.havocArg(arg.Type()) {
				a.havocIn(a.val(arg), a.lay.size(arg.Type()))
			}
		}
		if res != nil {
			a.havocOut(a.val(res), a.lay.size(res.Type()), res.Type())
		}
		return
	}
	a.reach(callee)
	params := callee.Params
	if recvSize >= 0 && len(params) > 0 {
		a.copyBlock(recv, a.val(params[0]), min(recvSize, a.lay.size(params[0].Type())))
		params = params[1:]
	}
	for i, arg := range args {
		if i < len(params) {
			a.copyVal(arg, params[i])
		}
	}
	if res != nil {
		rt := resultType(callee.Signature)
		a.copyBlock(a.resultNode(callee), a.val(res), min(a.lay.size(rt), a.lay.size(res.Type())))
	}
}

// method returns the concrete method m of dynamic type t, or nil.
func (a *analysis) method(t types.Type, m *types.Func) *ssa.Function {
	cache, _ := a.methods.At(t).(map[string]*ssa.Function)
	if cache == nil {
		cache = map[string]*ssa.Function{}
		a.methods.Set(t, cache)
	}
	if fn, ok := cache[m.Id()]; ok {
		return fn
	}
	var fn *ssa.Function
	if sel := a.prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name()); sel != nil {
		fn = a.prog.MethodValue(sel)
	}
	cache[m.Id()] = fn
	return fn
}

func (a *analysis) implements(t types.Type, iface *types.Interface) bool {
	cache, _ := a.impls.At(t).(map[*types.Interface]bool)
	if cache == nil {
		cache = map[*types.Interface]bool{}
		a.impls.Set(t, cache)
	}
	ok, hit := cache[iface]
	if !hit {
		ok = types.Implements(t, iface)
		cache[iface] = ok
	}
	return ok
}

// posOf is the position recorded for an allocation.
func posOf(v ssa.Value) token.Pos { return v.Pos() }
