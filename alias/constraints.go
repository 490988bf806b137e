package alias

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gopct/gopct/internal/load"
)

// loadC: dst[i] ⊇ *(p + off + i) for i < size.
type loadC struct {
	dst       nodeID
	off, size int
}

func (c *loadC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		for i := range c.size {
			a.s.addCopy(a.nodeOf(a.cellIn(t, c.off+i)), c.dst+nodeID(i))
		}
	}
}

// storeC: *(p + off + i) ⊇ src[i] for i < size.
type storeC struct {
	src       nodeID
	off, size int
}

func (c *storeC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		for i := range c.size {
			a.s.addCopy(c.src+nodeID(i), a.nodeOf(a.cellIn(t, c.off+i)))
		}
	}
}

// offsetC: dst ⊇ { p + off } (field and element addresses).
type offsetC struct {
	dst nodeID
	off int
}

func (c *offsetC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		if cell := a.cellIn(t, c.off); cell >= 0 {
			a.s.addPts(c.dst, cell)
		}
	}
}

// callSite is a call whose callee is found during solving.
type callSite struct {
	args   []ssa.Value
	res    ssa.Value   // nil for go/defer or no result
	method *types.Func // invoke mode: the interface method
}

// callC: a call through a func value; each function object the value may
// hold becomes a callee.
type callC struct{ site *callSite }

func (c *callC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		// The signature check keeps methods (whose receiver is a
		// parameter) and mismatched functions from unsafe casts out.
		if o := a.objectAt(t); o.kind == objFunc && o.fn.Signature.Recv() == nil &&
			o.fn.Signature.Params().Len() == len(c.site.args) {
			a.connect(o.fn, noNode, -1, c.site.args, c.site.res)
		}
	}
}

// invokeC: an interface method call; each box the interface may hold
// selects the concrete method, and the box contents become the receiver.
type invokeC struct{ site *callSite }

func (c *invokeC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		o := a.objectAt(t)
		if o.kind != objBox || t != o.cell {
			continue
		}
		if fn := a.method(o.typ, c.site.method); fn != nil {
			a.connect(fn, o.start, a.lay.size(o.typ), c.site.args, c.site.res)
		}
	}
}

// assertC: dst ⊇ the boxes (interface target) or box contents (concrete
// target) whose dynamic type fits typ.
type assertC struct {
	dst nodeID
	typ types.Type
}

func (c *assertC) solve(a *analysis, delta []int) {
	iface, isIface := c.typ.Underlying().(*types.Interface)
	for _, t := range delta {
		o := a.objectAt(t)
		if o.kind != objBox || t != o.cell {
			continue
		}
		switch {
		case isIface:
			if a.implements(o.typ, iface) {
				a.s.addPts(c.dst, o.cell)
			}
		case types.Identical(o.typ, c.typ):
			a.copyBlock(o.start, c.dst, a.lay.size(c.typ))
		}
	}
}

// havocC is attached to the havoc node: the contents of every object
// reaching it flow into it too (reachability closure), and every function reaching it may be
// called with havoc arguments. This summarises code the analysis does not
// look into (reflection, the runtime, atomics, bodiless functions).
type havocC struct{}

func (havocC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		idx := a.cellObj[t]
		if a.havocked[idx] {
			continue
		}
		a.havocked[idx] = true
		o := a.objs[idx]
		if o.kind == objFunc {
			a.havocCall(o.fn)
			continue
		}
		if a.lay.size(o.typ) == 0 {
			continue
		}
		// Unknown code may read everything reachable from what it is given;
		// it is assumed not to store pointers it was given into other memory
		// it was given (see doc.go), so the flow is one-way.
		for i := range o.size {
			a.s.addCopy(o.start+nodeID(i), a.havoc)
		}
	}
}

// filterC: dst ⊇ the pointees of the operand (the havoc node) that a cell
// of static type typ can point to.
type filterC struct {
	dst nodeID
	typ types.Type
}

func (c *filterC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		if a.fits(t, c.typ) {
			a.s.addPts(c.dst, t)
		}
	}
}

// fits reports whether a value of type t may point to cell c. It is a
// type filter, deliberately loose for pointers (any object containing the
// pointee type, at any offset) and exact for interfaces and functions.
func (a *analysis) fits(c int, t types.Type) bool {
	o := a.objectAt(c)
	switch u := load.CoreType(t).(type) {
	case *types.Interface:
		return o.kind == objBox && c == o.cell && (u.Empty() || a.implements(o.typ, u))
	case *types.Signature:
		return o.kind == objFunc && types.Identical(o.fn.Signature, u)
	case *types.Map:
		// A map object's type is the struct of its key and value blocks.
		if o.kind != objMap {
			return false
		}
		st := o.typ.Underlying().(*types.Struct)
		return types.Identical(st.Field(0).Type(), u.Key()) && types.Identical(st.Field(1).Type(), u.Elem())
	case *types.Chan:
		return o.kind == objChan && types.Identical(o.typ, u.Elem())
	case *types.Pointer:
		return c == o.cell && a.holds(o, u.Elem())
	case *types.Slice:
		return c == o.cell && a.holds(o, u.Elem())
	}
	return true // unsafe.Pointer, type parameters, the unexpected
}

// holds reports whether object o, pointed to at its start, may be a value
// of type t: its type is t, or an array of t. (Interior pointers handed out
// by unknown code are not modelled: their offset is unknown, and guessing
// would mix the fields of unrelated types.)
func (a *analysis) holds(o *object, t types.Type) bool {
	switch o.kind {
	case objFunc, objMap, objChan:
		return false
	}
	if arr, ok := t.Underlying().(*types.Array); ok {
		t = arr.Elem()
	}
	m, _ := a.holdsCache.At(o.typ).(map[types.Type]bool)
	if m == nil {
		m = map[types.Type]bool{}
		a.holdsCache.Set(o.typ, m)
	}
	ok, hit := m[t]
	if !hit {
		ok = types.Identical(o.typ, t)
		if arr, isArr := o.typ.Underlying().(*types.Array); isArr {
			ok = ok || types.Identical(arr.Elem(), t)
		}
		m[t] = ok
	}
	return ok
}
