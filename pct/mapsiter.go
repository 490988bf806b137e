package pct

import (
	"iter"
	"sync"
)

// The iterators of package maps. maps.Keys, maps.Values and maps.All run
// in the standard library, which gopct does not instrument, and visit the
// map in Go's randomised order: a test that starts a goroutine per key of
// `for k := range maps.Keys(m)` got another schedule in every process, so
// hunts with a fixed seed differed and 4 of 5 replays diverged. The
// instrumenter rewrites those calls to the functions below, which visit the
// map as a range loop over it does under control (MapWalk: a read
// scheduling point per entry, keys in a deterministic order, entries
// deleted before they are reached skipped). Each range over the returned
// sequence walks the map afresh, as the standard library's does.

// MapsKeys is maps.Keys(m).
func MapsKeys[M ~map[K]V, K comparable, V any](site int, m M) iter.Seq[K] {
	return func(yield func(K) bool) {
		for w, k, _ := MapWalk(site, m); w.Next(&k, nil); {
			if !yield(k) {
				return
			}
		}
	}
}

// MapsValues is maps.Values(m).
func MapsValues[M ~map[K]V, K comparable, V any](site int, m M) iter.Seq[V] {
	return func(yield func(V) bool) {
		for w, _, v := MapWalk(site, m); w.Next(nil, &v); {
			if !yield(v) {
				return
			}
		}
	}
}

// MapsAll is maps.All(m).
func MapsAll[M ~map[K]V, K comparable, V any](site int, m M) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for w, k, v := MapWalk(site, m); w.Next(&k, &v); {
			if !yield(k, v) {
				return
			}
		}
	}
}

// SyncMapRange is m.Range(f). sync.Map visits its entries in an order of
// its own hash seed, random in every process, and f (the test's code) may
// start goroutines or synchronise: under control the entries are visited
// in MapWalk's order instead, so that a replay in another process follows
// the same schedule. The keys are taken at the start; an entry deleted
// before it is reached is skipped and a value is read when it is reached
// (Range may reflect any mapping of a key from any point during the call).
// Outside an execution, Go's order.
func SyncMapRange(site int, m *sync.Map, f func(key, value any) bool) {
	syncPoint(site) // an atomic read of the map, as before
	e, _ := self()
	if e == nil {
		m.Range(f)
		return
	}
	var keys []any
	m.Range(func(k, _ any) bool {
		keys = append(keys, k)
		return true
	})
	sortKeysIn(keys, e.keyOrder)
	for _, k := range keys {
		if v, ok := m.Load(k); ok && !f(k, v) {
			return
		}
	}
}
