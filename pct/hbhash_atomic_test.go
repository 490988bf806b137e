package pct

import "testing"

// Two atomics of two goroutines on different addresses, in either order:
// the hash keeps atomics one chain, as it did before atomic events carried
// their address (3796bd9), which tells apart at least every pair of
// executions the race detector's per-address orders do.
func TestHBHashAtomicsOneChain(t *testing.T) {
	sum := func(first, second Event) uint64 {
		h := newHBHash()
		h.add(&Event{Kind: EvSpawn, G: 0, Other: 1, Site: sGo})
		h.add(&first)
		h.add(&second)
		return h.sum()
	}
	a := Event{Kind: EvAtomic, G: 0, Site: sAtomic, Op: KindAtomic, Obj: 0x1000}
	b := Event{Kind: EvAtomic, G: 1, Site: sAtomic, Op: KindAtomic, Obj: 0x2000}
	if sum(a, b) == sum(b, a) {
		t.Error("atomics on two addresses in two orders hash the same")
	}
	// Without addresses (sync.Map, atomic types' methods) as before.
	a.Obj, b.Obj = 0, 0
	if sum(a, b) == sum(b, a) {
		t.Error("atomics without address in two orders hash the same")
	}
}
