package pct

import (
	"cmp"
	"reflect"
	"slices"
)

// keyOrder numbers, in one execution, the map keys that hold addresses
// (pointers, channels, interfaces, and structs or arrays containing them)
// in the order they were first stored into a map under control. MapWalk
// visits such keys in that order: sorting them by address would make the
// order depend on where the allocator put them, which differs from one
// process to the next (a garbage collection at another moment, another
// allocation history), so a replay in a fresh process could visit them in
// another order than the hunt. The store order is part of the schedule, the
// same in every replay. Keys that no instrumented store put in the map (a
// composite literal, uninstrumented code, an earlier execution) come after
// the numbered ones, by value and then, as a last resort, by address.
type keyOrder map[any]int

// noteKey gives k the next number if it holds an address and has none; the
// caller has just stored k into a map under control.
func noteKey[K comparable](e *execution, k K) {
	if !holdsAddress(reflect.TypeFor[K]()) {
		return
	}
	key := any(k)
	if _, ok := e.keyOrder[key]; ok {
		return
	}
	if e.keyOrder == nil {
		e.keyOrder = keyOrder{}
	}
	e.keyOrder[key] = len(e.keyOrder)
}

// noteStoredKey is noteKey for a store at an inactive site, which did not
// look up its execution. Keys of a plain value type return at once. For
// structs and arrays holdsAddress reads its cache, which only the token
// holder may touch: the execution is looked up first (a store outside one,
// by an unmanaged goroutine, must not reach the cache). The kinds are
// tested here, not by a call of holdsAddress: HashSet's 500,000 int keys
// per execution paid for that call (issue 11), and for reflect's TypeFor
// until the commonest key types were told apart by a type switch (a nil
// *K in an interface: no allocation).
func noteStoredKey[K comparable](k K) {
	switch any((*K)(nil)).(type) {
	case *int, *int64, *int32, *uint, *uint64, *uint32, *string:
		return
	}
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer, reflect.Interface, reflect.Struct, reflect.Array:
	default:
		return
	}
	if e, _ := self(); e != nil {
		noteKey(e, k)
	}
}

// addressTypes caches holdsAddress per key type. Only the token holder of
// an execution reads or writes it (noteKey and MapWalk run under the token),
// so it needs no lock: each handoff orders one holder after the previous.
var addressTypes = map[reflect.Type]bool{}

// holdsAddress says whether values of t compare by an address somewhere
// (pointer, channel, unsafe pointer, interface, or a struct or array with
// one inside).
func holdsAddress(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer, reflect.Interface:
		return true
	case reflect.Struct, reflect.Array:
	default:
		return false
	}
	if v, ok := addressTypes[t]; ok {
		return v
	}
	v := false
	if t.Kind() == reflect.Array {
		v = holdsAddress(t.Elem())
	}
	for i := 0; t.Kind() == reflect.Struct && i < t.NumField() && !v; i++ {
		v = holdsAddress(t.Field(i).Type)
	}
	addressTypes[t] = v
	return v
}

// sortKeysIn orders the keys of a map deterministically: by value, and,
// for keys that hold addresses, by the execution's store order first.
func sortKeysIn[K comparable](keys []K, order keyOrder) {
	if len(order) == 0 || !holdsAddress(reflect.TypeFor[K]()) {
		sortKeys(keys)
		return
	}
	rank := func(k K) int {
		if n, ok := order[any(k)]; ok {
			return n
		}
		return len(order) // not stored under control: after the others
	}
	slices.SortStableFunc(keys, func(a, b K) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		return compareValues(reflect.ValueOf(a), reflect.ValueOf(b))
	})
}
