package pct

import (
	"testing"
	"unsafe"
)

// TestPtrTable stores models for many objects, across several growths,
// and finds each again, with nil for objects never stored.
func TestPtrTable(t *testing.T) {
	var tab ptrTable[lockModel]
	objs := make([][2]int64, 1000) // 16-byte objects: neighbours differ by 16
	if tab.get(unsafe.Pointer(&objs[0][0])) != nil {
		t.Fatal("empty table found a model")
	}
	made := map[unsafe.Pointer]*lockModel{}
	for i := range objs {
		p := unsafe.Pointer(&objs[i][0])
		made[p] = tab.getOrNew(p)
		if tab.getOrNew(p) != made[p] {
			t.Fatalf("object %d: a second model", i)
		}
	}
	if tab.n != len(objs) || len(tab.keys) != 2048 {
		t.Fatalf("n=%d slots=%d, want 1000 and 2048", tab.n, len(tab.keys))
	}
	for p, m := range made {
		if tab.get(p) != m {
			t.Fatalf("lost the model of %p", p)
		}
	}
	if tab.get(unsafe.Pointer(&objs[3][1])) != nil {
		t.Fatal("found a model for an address never stored")
	}
}
