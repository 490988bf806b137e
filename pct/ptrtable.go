package pct

import "unsafe"

// ptrTable maps object addresses to the scheduler's model of the object (a
// mutex, a map). It replaces a map[any]any whose interface hashing was
// about a fifth of the CPU of a lock-heavy test (issue 11: a sharded hash
// set does 2M Lock/Unlock per execution, each looking up its model): an
// open-addressing table keyed by the pointer, hashed by one multiplication
// (Fibonacci hashing), probed linearly, half full at most. Keys are
// unsafe.Pointer, so the table keeps the objects alive for the execution,
// as the interface keys did; an address is never reused while listed.
// Entries are never removed: a table lives for one execution.
type ptrTable[V any] struct {
	keys  []unsafe.Pointer // nil: free slot
	vals  []*V
	n     int  // entries
	shift uint // 64 - log2(len(keys))
}

// fibMul is 2^64 divided by the golden ratio: multiplying by it spreads
// aligned addresses over the high bits (Knuth, TAOCP vol. 3, 6.4).
const fibMul = 0x9e3779b97f4a7c15

// slot is where the probe for p starts.
func (t *ptrTable[V]) slot(p unsafe.Pointer) int {
	return int((uint64(uintptr(p)) * fibMul) >> t.shift)
}

// get returns the value stored for p, or nil.
func (t *ptrTable[V]) get(p unsafe.Pointer) *V {
	if t.n == 0 {
		return nil
	}
	mask := len(t.keys) - 1
	for i := t.slot(p); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case p:
			return t.vals[i]
		case nil:
			return nil
		}
	}
}

// getOrNew returns the value stored for p, storing a new zero value first
// if there is none.
func (t *ptrTable[V]) getOrNew(p unsafe.Pointer) *V {
	if v := t.get(p); v != nil {
		return v
	}
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	v := new(V)
	t.insert(p, v)
	return v
}

func (t *ptrTable[V]) insert(p unsafe.Pointer, v *V) {
	mask := len(t.keys) - 1
	i := t.slot(p)
	for t.keys[i] != nil {
		i = (i + 1) & mask
	}
	t.keys[i], t.vals[i] = p, v
	t.n++
}

// grow doubles the table (16 slots to start) and reinserts the entries.
func (t *ptrTable[V]) grow() {
	keys, vals := t.keys, t.vals
	size := max(16, 2*len(keys))
	t.keys, t.vals, t.n = make([]unsafe.Pointer, size), make([]*V, size), 0
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for i, k := range keys {
		if k != nil {
			t.insert(k, vals[i])
		}
	}
}
