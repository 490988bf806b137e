package pct

import (
	"runtime"
	"testing"
)

// BenchmarkRaceShadowMemory reports the heap the race detector keeps per
// distinct tracked address (its shadow state: pages of consecutive words,
// race.go), for consecutive words (an array) in three access patterns:
// written by one goroutine only; written, then read by a second goroutine
// after a release/acquire (the read epoch inline); read by three goroutines
// (the third read spills into the extra slice); and for scattered words
// (one per 4 KiB: the worst case of the pages, a page for one word).
// Vector clocks are per goroutine and per sync object, not per address, and
// are left out. The heap is measured after a collection, around n
// addresses.
func BenchmarkRaceShadowMemory(b *testing.B) {
	const n = 100_000
	for _, c := range []struct {
		name            string
		readers, stride int
	}{{"write-only", 0, 8}, {"write+1-reader", 1, 8}, {"write+3-readers", 3, 8}, {"scattered-write+1-reader", 1, 4096}} {
		bytes := shadowBytes(n, c.readers, c.stride)
		b.ReportMetric(bytes/n, "B/addr-"+c.name)
	}
	b.ReportMetric(0, "ns/op")
}

// shadowBytes feeds a detector n writes by goroutine 0 to distinct
// addresses stride bytes apart, orders readers goroutines after them
// through a lock, lets each read every address, and returns the heap
// growth.
func shadowBytes(n, readers, stride int) float64 {
	before := heapInUse()
	r := newRaceDetector()
	const lock = uintptr(1)
	for a := range n {
		r.Observe(&Event{Kind: EvWrite, G: 0, Site: 1, Obj: uintptr(0x10000 + stride*a)})
	}
	r.Observe(&Event{Kind: EvRelease, G: 0, Obj: lock})
	for g := 1; g <= readers; g++ {
		r.Observe(&Event{Kind: EvAcquire, G: g, Obj: lock})
		for a := range n {
			r.Observe(&Event{Kind: EvRead, G: g, Site: 2, Obj: uintptr(0x10000 + stride*a)})
		}
	}
	if r.race != nil {
		panic("unexpected race: " + r.race.Message)
	}
	after := heapInUse()
	runtime.KeepAlive(r)
	return float64(after - before)
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestRaceShadowMemoryBound keeps the shadow state per address within a
// bound that holds on any 64-bit Go map layout: an inline read epoch must
// not allocate per access (a regression to a slice per address would
// double it).
func TestRaceShadowMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few megabytes")
	}
	if got := shadowBytes(20_000, 1, 8) / 20_000; got > 200 {
		t.Errorf("%.0f bytes of shadow state per address written and read once, want <= 200", got)
	}
}

// TestRaceAccessAllocatesNothing: once an address is tracked, further
// accesses to it (a write, then a read, by one goroutine) allocate nothing.
func TestRaceAccessAllocatesNothing(t *testing.T) {
	r := newRaceDetector()
	w := &Event{Kind: EvWrite, G: 0, Site: 1, Obj: 0x1000}
	rd := &Event{Kind: EvRead, G: 0, Site: 2, Obj: 0x1000}
	r.Observe(w)
	r.Observe(rd)
	if n := testing.AllocsPerRun(1000, func() { r.Observe(w); r.Observe(rd) }); n != 0 {
		t.Errorf("%v allocations per write+read of a tracked address, want 0", n)
	}
}
