package alias

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// objKind classifies abstract objects.
type objKind uint8

const (
	objGlobal objKind = iota // a package-level variable
	objAlloc                 // heap (escaping) ssa.Alloc: new, &T{}, captured or escaping locals
	objLocal                 // non-escaping ssa.Alloc: never shared, never in Q
	objArray                 // backing array: make([]T), append growth, []byte(s)
	objMap                   // make(map) or map literal
	objChan                  // make(chan)
	objBox                   // the dynamic value inside an interface
	objFunc                  // a function (identity only)
)

// An object is an abstract memory object: a contiguous block of cells.
type object struct {
	kind  objKind
	start nodeID // first node
	cell  int    // first cell id: what points-to sets contain
	size  int
	typ   types.Type    // type of the object's contents (box: the dynamic type)
	pos   token.Pos     // allocation or declaration position
	site  ssa.Value     // allocating value, or the *ssa.Global
	fn    *ssa.Function // objFunc: the function
}

// newObject allocates the cells of an object of content type t.
func (a *analysis) newObject(kind objKind, t types.Type, site ssa.Value, pos token.Pos) *object {
	o := &object{kind: kind, typ: t, site: site, pos: pos, size: a.lay.objSize(t)}
	idx := int32(len(a.objs))
	a.objs = append(a.objs, o)
	o.start = a.s.newNodes(o.size)
	a.noteOwner(o.start, o.size, debugOwner{obj: o})
	// Cell ids are dense (objects only), so points-to sets stay compact.
	o.cell = len(a.cellObj)
	for range o.size {
		a.cellObj = append(a.cellObj, idx)
	}
	return o
}

// objectAt returns the object owning cell t.
func (a *analysis) objectAt(t int) *object { return a.objs[a.cellObj[t]] }

// cellIn returns cell t+off if it lies inside t's object; else -1.
// Offsets can overrun an object only after unsafe type punning.
func (a *analysis) cellIn(t, off int) int {
	o := a.objectAt(t)
	c := t + off
	if c < o.cell || c >= o.cell+o.size {
		return -1
	}
	return c
}

// nodeOf is the node holding the points-to set of cell c (noNode for -1).
func (a *analysis) nodeOf(c int) nodeID {
	if c < 0 {
		return noNode
	}
	o := a.objectAt(c)
	return o.start + nodeID(c-o.cell)
}

// funcObj is the identity object of fn, the pointee of every func value
// that may hold fn (plain or closure).
func (a *analysis) funcObj(fn *ssa.Function) *object {
	if o, ok := a.funcObjs[fn]; ok {
		return o
	}
	o := a.newObject(objFunc, fn.Signature, fn, fn.Pos())
	o.fn = fn
	a.funcObjs[fn] = o
	return o
}

// globalObj is the object of a package-level variable.
func (a *analysis) globalObj(g *ssa.Global) *object {
	if o, ok := a.globalObjs[g]; ok {
		return o
	}
	o := a.newObject(objGlobal, g.Type().(*types.Pointer).Elem(), g, g.Pos())
	a.globalObjs[g] = o
	return o
}

// boxObj is the object holding a value of dynamic type t converted to an
// interface at site v. Boxes are per site in the module's code (precision
// where Q lives) and per dynamic type elsewhere: interface values such as
// error and any flow almost everywhere in the standard library, and per-site
// boxes there would make nearly every interface set thousands large.
// Pointer-free boxes carry only the type, so one per type is exact.
func (a *analysis) boxObj(t types.Type, v *ssa.MakeInterface) *object {
	if hasPointers(a.lay, t) && a.inModule != nil && a.inModule(v.Parent().Pos()) {
		return a.newObject(objBox, t, v, v.Pos())
	}
	if o, ok := a.scalarBoxes.At(t).(*object); ok {
		return o
	}
	o := a.newObject(objBox, t, nil, token.NoPos)
	a.scalarBoxes.Set(t, o)
	return o
}
