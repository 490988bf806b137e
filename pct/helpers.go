package pct

import "unsafe"

// Helpers that rewritten code needs besides the operations of api.go. They
// exist because Go cannot infer a type argument from one parameter only:
// Store(site, &iface, concrete) fails to infer T, while
// XStore(site, &iface)(concrete) infers T from the pointer and then
// converts the argument by assignment.

// XAppend returns a function computing append(s, v...): the result is
// registered with Alloc (site is the append call) only when append
// allocated a new backing array, so that an append within capacity does
// not rename the array s already refers to.
func XAppend[S ~[]E, E any](site int, s S) func(v ...E) S {
	return func(v ...E) S {
		r := append(s, v...)
		if unsafe.SliceData(r) != unsafe.SliceData(s) {
			Alloc(site, r)
		}
		return r
	}
}

// Spread is append(head, tail...) for the instrumenter, which never spells
// a builtin's name in generated code: a package may declare its own.
func Spread(head, tail []interface{}) []interface{} { return append(head, tail...) }

// XZero returns zero values of the element type of ch and false: the
// temporaries of an instrumented select receive case.
func XZero[T any](ch <-chan T) (v T, ok bool) { return }

// XStore returns a function storing into *p through Store.
func XStore[T any](site int, p *T) func(T) {
	return func(v T) { Store(site, p, v) }
}

// XSend returns a function sending on ch through Send.
func XSend[T any](site int, ch chan<- T) func(T) {
	return func(v T) { Send(site, ch, v) }
}

// XMapStore returns a function storing into m through MapStore.
func XMapStore[M ~map[K]V, K comparable, V any](site int, m M) func(K, V) {
	return func(k K, v V) { MapStore(site, m, k, v) }
}
