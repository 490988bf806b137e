package alias

import (
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// A layout is the flattened shape of a type: how many pointer-carrying cells
// (nodes) a value of that type occupies, and where each struct field or tuple
// component starts. Only pointer-like leaves get a cell: scalars never carry
// points-to facts, and dropping them keeps the constraint graph small. A
// field without pointers is given the offset of the next pointer cell (or the
// last one); that aliasing is harmless because no pointer is ever loaded from
// or stored to a scalar field, and accesses only need the enclosing object.
type layout struct {
	n    int   // number of pointer-like cells
	offs []int // start offset of each struct field / tuple element
}

// layouts caches layouts by type identity.
type layouts struct {
	m typeutil.Map
}

func (ls *layouts) of(t types.Type) *layout {
	if l, ok := ls.m.At(t).(*layout); ok {
		return l
	}
	l := ls.compute(t)
	ls.m.Set(t, l)
	return l
}

// size is the number of cells a value of type t needs (possibly 0).
func (ls *layouts) size(t types.Type) int { return ls.of(t).n }

// objSize is the number of nodes an object of type t needs: at least one, so
// that every object has an identity node even when it holds no pointers.
func (ls *layouts) objSize(t types.Type) int { return max(1, ls.size(t)) }

func (ls *layouts) compute(t types.Type) *layout {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		l := &layout{offs: make([]int, u.NumFields())}
		for i := range u.NumFields() {
			l.offs[i] = l.n
			l.n += ls.size(u.Field(i).Type())
		}
		return l
	case *types.Tuple:
		l := &layout{offs: make([]int, u.Len())}
		for i := range u.Len() {
			l.offs[i] = l.n
			l.n += ls.size(u.At(i).Type())
		}
		return l
	case *types.Array:
		// All elements of an array share one abstract element.
		return &layout{n: ls.size(u.Elem())}
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return &layout{n: 1}
		}
		return &layout{}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan,
		*types.Signature, *types.Interface, *types.TypeParam:
		return &layout{n: 1}
	}
	return &layout{n: 1} // conservative for anything unexpected
}

// fieldOff is the cell offset of field i inside struct (or tuple) type t,
// clamped so that it always designates a cell of an object of type t.
func (ls *layouts) fieldOff(t types.Type, i int) int {
	l := ls.of(t)
	if i >= len(l.offs) {
		return 0
	}
	return min(l.offs[i], max(0, l.n-1))
}

// mapObjType is the type of the abstract object behind a map: one key cell
// block followed by one value block.
func mapObjType(m *types.Map) types.Type {
	return types.NewStruct([]*types.Var{
		types.NewField(0, nil, "key", m.Key(), false),
		types.NewField(0, nil, "value", m.Elem(), false),
	}, nil)
}

func hasPointers(ls *layouts, t types.Type) bool { return ls.size(t) > 0 }

// leaves lists the types of t's pointer-like cells, in cell order.
func (ls *layouts) leaves(t types.Type) []types.Type {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		var out []types.Type
		for i := range u.NumFields() {
			out = append(out, ls.leaves(u.Field(i).Type())...)
		}
		return out
	case *types.Tuple:
		var out []types.Type
		for i := range u.Len() {
			out = append(out, ls.leaves(u.At(i).Type())...)
		}
		return out
	case *types.Array:
		return ls.leaves(u.Elem())
	}
	if ls.size(t) == 1 {
		return []types.Type{t}
	}
	return nil
}
