package alias

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gopct/gopct/internal/load"
)

// The type-based baseline answers "which variables may this site touch"
// from types alone: every variable whose type contains, as itself or as a
// nested field or array element, the type of the object the site's address
// is rooted in. It is what an analysis without points-to facts can say, and
// the yardstick for the precision of the real one.

// accessBaseType is the type of the memory a site's address is rooted in:
// field and array-element addressing is stripped to reach the base pointer.
func accessBaseType(ptr ssa.Value) types.Type {
	for {
		switch v := ptr.(type) {
		case *ssa.FieldAddr:
			ptr = v.X
			continue
		case *ssa.IndexAddr:
			if _, ok := load.CoreType(v.X.Type()).(*types.Pointer); ok {
				ptr = v.X // &arr[i] through *[N]T
				continue
			}
		}
		break
	}
	switch t := load.CoreType(ptr.Type()).(type) {
	case *types.Pointer:
		return t.Elem()
	case *types.Slice:
		return types.NewSlice(t.Elem())
	case *types.Map, *types.Chan:
		return t
	}
	return ptr.Type()
}

// contains reports whether a value of type outer has a part of type inner.
func contains(outer, inner types.Type, seen map[types.Type]bool) bool {
	if types.Identical(outer, inner) {
		return true
	}
	if seen[outer] {
		return false
	}
	seen[outer] = true
	switch u := outer.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if contains(u.Field(i).Type(), inner, seen) {
				return true
			}
		}
	case *types.Array:
		return contains(u.Elem(), inner, seen) || contains(types.NewSlice(u.Elem()), inner, seen)
	case *types.Slice:
		// a backing array (represented as a slice) holds elements
		return contains(u.Elem(), inner, seen)
	}
	return false
}

// baseline fills Site.Base for every site.
func (r *Result) baseline() {
	var cache typeutil.Map // base type -> []VarID
	for _, s := range r.allSites {
		if ids, ok := cache.At(s.baseType).([]VarID); ok {
			s.Base = ids
			continue
		}
		var ids []VarID
		for _, v := range r.Vars {
			if contains(v.typ, s.baseType, map[types.Type]bool{}) {
				ids = append(ids, v.ID)
			}
		}
		cache.Set(s.baseType, ids)
		s.Base = ids
	}
}

// Precision summarises the may-access relation of the analysis and of the
// type baseline over the same sites and variables.
type Precision struct {
	Vars, Sites     int
	SitesPerVar     float64 // analysis: mean may-access sites per variable
	VarsPerSite     float64 // analysis: mean variables per site
	BaseSitesPerVar float64 // baseline
	BaseVarsPerSite float64 // baseline
}

// Precision computes the means over all access sites of the module's
// reachable code (including sites the analysis proves local) and all of Q.
func (r *Result) Precision() Precision {
	p := Precision{Vars: len(r.Vars), Sites: len(r.allSites)}
	var pairs, basePairs int
	for _, s := range r.allSites {
		pairs += len(s.Vars)
		basePairs += len(s.Base)
	}
	if p.Sites > 0 {
		p.VarsPerSite = float64(pairs) / float64(p.Sites)
		p.BaseVarsPerSite = float64(basePairs) / float64(p.Sites)
	}
	if p.Vars > 0 {
		p.SitesPerVar = float64(pairs) / float64(p.Vars)
		p.BaseSitesPerVar = float64(basePairs) / float64(p.Vars)
	}
	return p
}
