package load

import "go/types"

// CoreType is t's underlying type or, for a type parameter, the underlying
// type of the first term of its constraint (what composite literals,
// make, range and indexing of a type parameter's values operate on: the
// code compiles only when every term shares it). It is nil for a type
// parameter whose constraint has no type term (any, comparable, a method
// set), and for nil.
func CoreType(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	return firstTerm(iface)
}

// firstTerm finds the first type term of an interface, looking through
// embedded interfaces.
func firstTerm(iface *types.Interface) types.Type {
	for i := range iface.NumEmbeddeds() {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			if e.Len() > 0 {
				return CoreType(e.Term(0).Type())
			}
		default:
			if in, ok := e.Underlying().(*types.Interface); ok {
				if u := firstTerm(in); u != nil {
					return u
				}
			} else {
				return CoreType(e)
			}
		}
	}
	return nil
}
