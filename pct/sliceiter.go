package pct

import "unsafe"

// Range loops over slices.
//
// `for i, v := range s` reads s's elements, one per iteration, and the
// instrumenter used to leave it as it was: the race detector never saw the
// reads (a goroutine that ranges over a slice while another writes one of
// its elements went unreported, where a loop of s[i] reads did not). A
// range loop over a slice that binds the element is now a plain for loop
// over its indices whose body first reads the element through RangeLoad at
// the loop's read site (at the range expression), then runs the body:
//
//	for s_, j_, i, v := SliceWalk(s); j_ < len(s_); j_++ { i, v = j_, RangeLoad(site, &s_[j_]); BODY }
//
// The slice is evaluated once, as range evaluates it. Declared in the for
// clause, i and v are per loop before go1.22 and per iteration from go1.22,
// as the range variables were; a continue goes on with the next element.
//
// RangeLoad is an event, not a scheduling point: the race detector sees the
// read (keyed by the element's address, as s[i]'s), and the schedules stay
// those of the loops before. Made points (Load), the reads moved the first
// report of seven pinned hunts and examples (examples/mapwrites' fatal
// "concurrent map writes" became its lost update's "fail"): they explore
// more, but a hunt's outcome for a seed is what those tests promise, and
// PCTVB, whose profiling counts the points' accesses, would count them too.
// That is a change of its own.
//
// The loop stays an index loop whose RangeLoad is inlined: an element at an
// inactive site costs 0.6 ns against 0.3 ns natively
// (BenchmarkSliceWalk, a sum over 1,000 ints: the gate's test and the
// bounds check, as an s[i] read), where a walker with a Next method, as for
// maps (mapiter.go), cost 35 ns. A range over an array or a pointer to an
// array stays as it is.

// SliceWalk begins a range loop over s: s itself, its length (the loop's
// bound, which the generated code does not spell len(s): a package may
// declare its own len, as bigcache's Len does), the first index, and the
// loop's index and element variables, zero.
func SliceWalk[S ~[]E, E any](s S) (_ S, n, j, i int, v E) { return s, len(s), 0, 0, v }

// RangeLoad reads *p, the element of a range loop, with an event for the
// observers (see above).
func RangeLoad[T any](site int, p *T) T {
	if gate[site] {
		rangeRead(site, unsafe.Pointer(p))
	}
	return *p
}

// rangeRead emits the read of a range loop's element when the execution's
// events are observed and the caller holds the token.
func rangeRead(site int, p unsafe.Pointer) {
	e := current.Load()
	if e == nil || !e.observing || getg() != e.curGP.Load() || e.aborted.Load() {
		return
	}
	e.emitOp(EvRead, e.holder.id, site, uintptr(p), false)
}
