package pct

import "unsafe"

// The builtin copy.
//
// copy(dst, src) reads src's elements and writes dst's, as a loop of loads
// and stores would, but it is one call: before, the instrumenter left it
// as it was, so it was no scheduling point and the race detector never saw
// its accesses (a copy out of a buffer that another goroutine fills without
// a lock went unreported). Now it is a memory site of kind write at the
// call: one scheduling point before the copy, as a store's, gated like
// one; with events observed (race detection, livelock windows), each
// element copied is then a read of src and a write of dst at that site,
// keyed by the element's address as the loads and stores of the same
// elements are. A copy of more than copyEventLimit elements reports its
// first copyEventLimit only: the detector's cost grows with the elements,
// and a race in a longer copy's tail is missed. A string source is
// immutable: only dst's writes are events.

// copyEventLimit bounds the elements of one copy the observers see.
const copyEventLimit = 1 << 12

// copyAccess is the scheduling point of copy(dst, src) at site: n elements
// of size bytes from src (nil: a string) to dst.
func copyAccess(site int, dst, src unsafe.Pointer, n int, size uintptr) {
	access(site, dst, nil, true, uintptr(n)*size)
	e := current.Load()
	if e == nil || getg() != e.curGP.Load() || e.aborted.Load() {
		return
	}
	g := e.holder
	if profiling && src != nil {
		prof.observe(site, g, uintptr(src), false) // the site reads src's variable too (PCTVB's sites)
	}
	if !e.observing {
		return
	}
	n = min(n, copyEventLimit)
	for i := 0; i < n; i++ {
		off := uintptr(i) * size
		if src != nil {
			e.emitOp(EvRead, g.id, site, uintptr(src)+off, false)
		}
		if i > 0 { // memPoint emitted the write of dst[0]
			e.emitOp(EvWrite, g.id, site, uintptr(dst)+off, false)
		}
	}
}
