package pct

import "iter"

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
