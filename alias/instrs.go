package alias

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gopct/gopct/internal/load"
)

// genInstr emits the constraints of one instruction.
func (a *analysis) genInstr(instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.Alloc:
		kind := objLocal
		if i.Heap {
			kind = objAlloc
		}
		a.alloc(i, kind, i.Type().(*types.Pointer).Elem())
	case *ssa.MakeSlice:
		a.alloc(i, objArray, sliceElem(i.Type()))
	case *ssa.MakeMap:
		a.alloc(i, objMap, mapObjType(load.CoreType(i.Type()).(*types.Map)))
	case *ssa.MakeChan:
		a.alloc(i, objChan, load.CoreType(i.Type()).(*types.Chan).Elem())
	case *ssa.MakeInterface:
		box := a.boxObj(i.X.Type(), i)
		a.s.addPts(a.val(i), box.cell)
		a.copyBlock(a.val(i.X), box.start, a.lay.size(i.X.Type()))
	case *ssa.MakeClosure:
		fn := i.Fn.(*ssa.Function)
		a.s.addPts(a.val(i), a.funcObj(fn).cell)
		for k, b := range i.Bindings {
			a.copyVal(b, fn.FreeVars[k])
		}
	case *ssa.Phi:
		for _, e := range i.Edges {
			a.copyVal(e, i)
		}
	case *ssa.UnOp:
		a.genUnOp(i)
	case *ssa.FieldAddr:
		if a.scalarOnly(i) {
			return
		}
		st := load.CoreType(i.X.Type()).(*types.Pointer).Elem()
		a.addCons(a.val(i.X), &offsetC{dst: a.val(i), off: a.lay.fieldOff(st, i.Field)})
	case *ssa.IndexAddr:
		if a.scalarOnly(i) {
			return
		}
		// Elements share the array object's cells: &a[i] points where a does.
		a.copyBlock(a.val(i.X), a.val(i), 1)
	case *ssa.Field:
		// A zero-value struct constant has no node: never offset noNode.
		if n := a.val(i.X); n != noNode {
			off := a.lay.fieldOff(i.X.Type(), i.Field)
			a.copyBlock(n+nodeID(off), a.val(i), a.lay.size(i.Type()))
		}
	case *ssa.Index:
		a.copyVal(i.X, i)
	case *ssa.Extract:
		if n := a.val(i.Tuple); n != noNode {
			off := a.lay.fieldOff(i.Tuple.Type(), i.Index)
			a.copyBlock(n+nodeID(off), a.val(i), a.lay.size(i.Type()))
		}
	case *ssa.Slice:
		a.copyVal(i.X, i)
	case *ssa.Convert:
		a.genConvert(i, i.X)
	case *ssa.MultiConvert:
		a.genConvert(i, i.X)
	case *ssa.ChangeType:
		a.copyVal(i.X, i)
	case *ssa.ChangeInterface:
		a.copyVal(i.X, i)
	case *ssa.SliceToArrayPointer:
		a.copyVal(i.X, i)
	case *ssa.TypeAssert:
		a.addCons(a.val(i.X), &assertC{dst: a.val(i), typ: i.AssertedType})
	default:
		a.genMemInstr(instr)
	}
}

// scalarOnly reports whether the address v, computed in code outside the
// module, is only used to load or store pointer-free values: such a load or
// store has no constraint, so v needs no node. (Huge table initialisers,
// e.g. crypto's precomputed tables, are tens of thousands of &t[i] = c.)
// The module's addresses always get a node: access sites are resolved
// through them.
func (a *analysis) scalarOnly(v ssa.Value) bool {
	if a.curInModule {
		return false
	}
	pt, ok := load.CoreType(v.Type()).(*types.Pointer)
	if !ok || a.lay.size(pt.Elem()) > 0 {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != v || r.Val == v {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func sliceElem(t types.Type) types.Type {
	switch u := load.CoreType(t).(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Pointer:
		if arr, ok := load.CoreType(u.Elem()).(*types.Array); ok {
			return arr.Elem()
		}
	}
	return types.Typ[types.Byte]
}

func (a *analysis) alloc(v ssa.Value, kind objKind, t types.Type) *object {
	o := a.newObject(kind, t, v, posOf(v))
	a.s.addPts(a.val(v), o.cell)
	return o
}

func (a *analysis) genUnOp(i *ssa.UnOp) {
	switch i.Op {
	case token.MUL:
		a.load(i.X, a.val(i), 0, a.lay.size(i.Type()))
	case token.ARROW:
		elem := load.CoreType(i.X.Type()).(*types.Chan).Elem()
		a.load(i.X, a.val(i), 0, a.lay.size(elem))
	}
}

// genConvert: pointer conversions (including through unsafe.Pointer) keep
// the pointee; string to slice conversions allocate a fresh array; an
// unsafe.Pointer made from a uintptr may point anywhere havoc points.
func (a *analysis) genConvert(v, x ssa.Value) {
	_, toSlice := load.CoreType(v.Type()).(*types.Slice)
	if b, ok := load.CoreType(x.Type()).(*types.Basic); ok && b.Info()&types.IsString != 0 && toSlice {
		a.alloc(v, objArray, sliceElem(v.Type()))
		return
	}
	if a.lay.size(x.Type()) == 0 && a.lay.size(v.Type()) > 0 {
		a.havocOut(a.val(v), a.lay.size(v.Type()), v.Type())
		return
	}
	a.copyVal(x, v)
}

// genMemInstr handles stores, maps, channels, calls and returns.
func (a *analysis) genMemInstr(instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.Store:
		a.store(i.Addr, a.val(i.Val), 0, a.lay.size(i.Val.Type()))
	case *ssa.Lookup:
		m, ok := load.CoreType(i.X.Type()).(*types.Map)
		if !ok {
			return
		}
		a.load(i.X, a.val(i), a.lay.size(m.Key()), a.lay.size(m.Elem()))
	case *ssa.MapUpdate:
		m := load.CoreType(i.Map.Type()).(*types.Map)
		ks := a.lay.size(m.Key())
		a.store(i.Map, a.val(i.Key), 0, ks)
		a.store(i.Map, a.val(i.Value), ks, a.lay.size(m.Elem()))
	case *ssa.Range:
		a.copyBlock(a.val(i.X), a.val(i), 1)
	case *ssa.Next:
		a.genNext(i)
	case *ssa.Send:
		a.store(i.Chan, a.val(i.X), 0, a.lay.size(i.X.Type()))
	case *ssa.Select:
		a.genSelect(i)
	case *ssa.Return:
		a.genReturn(i)
	case *ssa.Panic:
		a.copyBlock(a.val(i.X), a.panicNode, 1)
	case *ssa.Call:
		a.genCall(i.Common(), i)
	case *ssa.Go:
		a.genCall(i.Common(), nil)
	case *ssa.Defer:
		a.genCall(i.Common(), nil)
	}
}

func (a *analysis) genNext(i *ssa.Next) {
	if i.IsString {
		return
	}
	rng, ok := i.Iter.(*ssa.Range)
	if !ok {
		return
	}
	m, ok := load.CoreType(rng.X.Type()).(*types.Map)
	if !ok {
		return
	}
	dst := a.val(i)
	if dst == noNode {
		return
	}
	tt := i.Type()
	ks := a.lay.size(m.Key())
	a.load(rng, dst+nodeID(a.lay.fieldOff(tt, 1)), 0, ks)
	a.load(rng, dst+nodeID(a.lay.fieldOff(tt, 2)), ks, a.lay.size(m.Elem()))
}

func (a *analysis) genSelect(i *ssa.Select) {
	dst := a.val(i)
	tt := i.Type()
	k := 0
	for _, st := range i.States {
		elem := load.CoreType(st.Chan.Type()).(*types.Chan).Elem()
		if st.Dir == types.SendOnly {
			a.store(st.Chan, a.val(st.Send), 0, a.lay.size(elem))
			continue
		}
		if dst != noNode {
			a.load(st.Chan, dst+nodeID(a.lay.fieldOff(tt, 2+k)), 0, a.lay.size(elem))
		}
		k++
	}
}

func (a *analysis) genReturn(i *ssa.Return) {
	fn := i.Parent()
	res := a.resultNode(fn)
	if res == noNode {
		return
	}
	if len(i.Results) == 1 {
		a.copyBlock(a.val(i.Results[0]), res, a.lay.size(i.Results[0].Type()))
		return
	}
	tt := fn.Signature.Results()
	for k, r := range i.Results {
		a.copyBlock(a.val(r), res+nodeID(a.lay.fieldOff(tt, k)), a.lay.size(r.Type()))
	}
}

// genCall handles static, dynamic (func value) and invoke calls.
func (a *analysis) genCall(c *ssa.CallCommon, res ssa.Value) {
	if res != nil && a.lay.size(res.Type()) == 0 {
		res = nil
	}
	if c.IsInvoke() {
		site := &callSite{args: c.Args, res: res, method: c.Method}
		a.addCons(a.val(c.Value), &invokeC{site: site})
		return
	}
	switch callee := c.Value.(type) {
	case *ssa.Builtin:
		a.genBuiltin(callee, c.Args, res)
	case *ssa.Function:
		a.connect(callee, noNode, -1, c.Args, res)
	case *ssa.MakeClosure:
		a.connect(callee.Fn.(*ssa.Function), noNode, -1, c.Args, res)
	default:
		site := &callSite{args: c.Args, res: res}
		a.addCons(a.val(c.Value), &callC{site: site})
	}
}

func (a *analysis) genBuiltin(b *ssa.Builtin, args []ssa.Value, res ssa.Value) {
	switch b.Name() {
	case "append":
		if res == nil {
			return
		}
		// Growth allocates a fresh array at the append call.
		a.alloc(res, objArray, sliceElem(res.Type()))
		a.copyVal(args[0], res)
		a.copyElems(args[1], res)
	case "copy":
		a.copyElems(args[1], args[0])
	case "recover":
		if res != nil {
			a.copyBlock(a.panicNode, a.val(res), 1)
		}
	case "ssa:wrapnilchk", "Add", "Slice", "SliceData":
		if res != nil {
			a.copyVal(args[0], res)
		}
	}
}

// copyElems: the elements of slice dst may hold what those of src hold.
func (a *analysis) copyElems(src, dst ssa.Value) {
	if _, ok := load.CoreType(src.Type()).(*types.Slice); !ok {
		return // append([]byte, string...)
	}
	size := a.lay.size(sliceElem(dst.Type()))
	if size == 0 {
		return
	}
	tmp := a.s.newNodes(size)
	a.load(src, tmp, 0, size)
	a.store(dst, tmp, 0, size)
}
