package pct

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// MapWalk begins the instrumented form of a range loop over a map, in every
// language version (it needs no range-over-func):
//
//	for k, v := range m { BODY }
//	for w, k, v := MapWalk(site, m); w.Next(&k, &v); { BODY }
//
// w, k and v are declared by the for clause, so they are per loop or per
// iteration exactly as the range variables were in the file's language
// version; a blank or missing variable is passed as nil. Under control the
// keys are taken at the start and visited in a deterministic order (sorted;
// keys that hold addresses in the order they were first stored, see
// keyOrder), so that replays do not depend on Go's randomised map order nor
// on where the allocator put the keys; each iteration
// is a read scheduling point with the runtime's "concurrent map iteration and
// map write" check. Entries deleted before they are reached are skipped, and
// values are read when reached, as the language specifies; entries added
// during the loop are not produced (the specification allows either).
// Outside an execution the keys are visited in Go's order.
func MapWalk[M ~map[K]V, K comparable, V any](site int, m M) (w *MapWalker[M, K, V], k K, v V) {
	w = &MapWalker[M, K, V]{site: site, m: m, id: mapID(m)}
	if m == nil {
		return w, k, v
	}
	mapRead(site, w.id)
	w.keys = make([]K, 0, len(m))
	for key := range m {
		w.keys = append(w.keys, key)
	}
	if e, _ := self(); e != nil {
		sortKeysIn(w.keys, e.keyOrder)
	}
	return w, k, v
}

// MapWalker is the state of a range loop over a map (see MapWalk).
type MapWalker[M ~map[K]V, K comparable, V any] struct {
	site int
	m    M
	id   unsafe.Pointer
	keys []K
	i    int
}

// Next stores the next entry still in the map into *k and *v (either may be
// nil) and reports whether there was one.
func (w *MapWalker[M, K, V]) Next(k *K, v *V) bool {
	for w.i < len(w.keys) {
		key := w.keys[w.i]
		w.i++
		mapRead(w.site, w.id)
		val, ok := w.m[key]
		if !ok {
			continue
		}
		if k != nil {
			*k = key
		}
		if v != nil {
			*v = val
		}
		return true
	}
	return false
}

// sortKeys orders map keys deterministically: by value for ordered types,
// structurally (reflection) for the others.
func sortKeys[K comparable](keys []K) {
	switch ks := any(keys).(type) {
	case []string:
		slices.Sort(ks)
	case []int:
		slices.Sort(ks)
	case []int64:
		slices.Sort(ks)
	case []int32:
		slices.Sort(ks)
	case []uint64:
		slices.Sort(ks)
	case []uint32:
		slices.Sort(ks)
	case []uint:
		slices.Sort(ks)
	default:
		slices.SortFunc(keys, func(a, b K) int { return compareValues(reflect.ValueOf(a), reflect.ValueOf(b)) })
	}
}

// compareValues is a total order on comparable values of one type.
// Pointers compare by what they point to (a few levels deep) before their
// addresses, which differ from one process to the next.
func compareValues(a, b reflect.Value) int { return compareDepth(a, b, 0) }

// pointeeDepth bounds how deep compareDepth follows pointers (cycles).
const pointeeDepth = 3

func compareDepth(a, b reflect.Value, depth int) int {
	if !a.IsValid() || !b.IsValid() {
		return cmp.Compare(boolInt(a.IsValid()), boolInt(b.IsValid()))
	}
	if ta, tb := a.Type(), b.Type(); ta != tb {
		return cmp.Compare(ta.String(), tb.String()) // keys of interface type
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Bool:
		return cmp.Compare(boolInt(a.Bool()), boolInt(b.Bool()))
	case reflect.Complex64, reflect.Complex128:
		if c := cmp.Compare(real(a.Complex()), real(b.Complex())); c != 0 {
			return c
		}
		return cmp.Compare(imag(a.Complex()), imag(b.Complex()))
	case reflect.Pointer:
		if a.Pointer() == b.Pointer() {
			return 0
		}
		if depth < pointeeDepth && !a.IsNil() && !b.IsNil() {
			if c := compareDepth(a.Elem(), b.Elem(), depth+1); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Chan, reflect.UnsafePointer:
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareDepth(a.Index(i), b.Index(i), depth); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareDepth(a.Field(i), b.Field(i), depth); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		return compareInterfaces(a, b, depth)
	}
	return 0
}

func compareInterfaces(a, b reflect.Value, depth int) int {
	if a.IsNil() || b.IsNil() {
		return cmp.Compare(boolInt(!a.IsNil()), boolInt(!b.IsNil()))
	}
	ea, eb := a.Elem(), b.Elem()
	if ta, tb := ea.Type().String(), eb.Type().String(); ta != tb {
		return cmp.Compare(ta, tb)
	}
	if c := compareDepth(ea, eb, depth); c != 0 {
		return c
	}
	return cmp.Compare(fmt.Sprint(ea), fmt.Sprint(eb))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
