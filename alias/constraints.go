package alias

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// loadC: dst[i] ⊇ *(p + off + i) for i < size.
type loadC struct {
	dst       nodeID
	off, size int
}

func (c *loadC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		for i := range c.size {
			a.s.addCopy(a.cellIn(t, c.off+i), c.dst+nodeID(i))
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
			a.s.addCopy(c.src+nodeID(i), a.cellIn(t, c.off+i))
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
		if cell := a.cellIn(t, c.off); cell != noNode {
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
		if o := a.objectAt(t); o != nil && o.kind == objFunc {
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
		if o == nil || o.kind != objBox || nodeID(t) != o.start {
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
		if o == nil || o.kind != objBox || nodeID(t) != o.start {
			continue
		}
		switch {
		case isIface:
			if a.implements(o.typ, iface) {
				a.s.addPts(c.dst, o.start)
			}
		case types.Identical(o.typ, c.typ):
			a.copyBlock(o.start, c.dst, a.lay.size(c.typ))
		}
	}
}

// havocC is attached to the havoc node: every object reaching it is
// smashed with it (its cells are unified with the havoc node), and every function reaching it may be
// called with havoc arguments. This summarises code the analysis does not
// look into (reflection, the runtime, atomics, bodiless functions).
type havocC struct{}

func (havocC) solve(a *analysis, delta []int) {
	for _, t := range delta {
		idx := a.s.objOf[t]
		if idx < 0 || a.havocked[idx] {
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
		// Both directions make each cell equal to havoc: unify them at once
		// rather than wait for cycle detection to find the 2-cycles.
		for i := range o.size {
			a.s.unify(a.havoc, o.start+nodeID(i))
		}
	}
}
