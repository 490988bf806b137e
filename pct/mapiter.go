package pct

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
)

// MapIter is the range expression of `for k, v := range m` in modules whose
// language version has range-over-func (go >= 1.23). Under control it
// iterates in a deterministic order (sorted keys), so that replays do not
// depend on Go's randomised map order, and makes every iteration a read
// scheduling point with the runtime's "concurrent map iteration and map
// write" check. Entries deleted before they are reached are skipped, and
// values are read when reached, as the language specifies; entries added
// during the loop are not produced (the specification allows either).
func MapIter[M ~map[K]V, K comparable, V any](site int, m M) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		if e, _ := self(); e == nil || m == nil {
			for k, v := range m {
				if !yield(k, v) {
					return
				}
			}
			return
		}
		id := mapID(m)
		mapRead(site, id)
		keys := make([]K, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sortKeys(keys)
		for _, k := range keys {
			mapRead(site, id)
			v, ok := m[k]
			if ok && !yield(k, v) {
				return
			}
		}
	}
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
func compareValues(a, b reflect.Value) int {
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
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareValues(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareValues(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		return compareInterfaces(a, b)
	}
	return 0
}

func compareInterfaces(a, b reflect.Value) int {
	if a.IsNil() || b.IsNil() {
		return cmp.Compare(boolInt(!a.IsNil()), boolInt(!b.IsNil()))
	}
	ea, eb := a.Elem(), b.Elem()
	if ta, tb := ea.Type().String(), eb.Type().String(); ta != tb {
		return cmp.Compare(ta, tb)
	}
	if c := compareValues(ea, eb); c != 0 {
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
