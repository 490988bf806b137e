package pct

import (
	"os"
	"reflect"
	"testing"
)

// TestProgPointerKeys walks a map whose keys are pointers to equal values,
// allocated in an order that depends on the environment (as the allocation
// history of two processes may differ), and takes a longer path when the
// walk visits the second stored key first. The test always fails, so the hunt
// reports its first execution.
func TestProgPointerKeys(t *testing.T) {
	skipNative(t)
	type item struct{ n int }
	RunTest(t, func(t *testing.T) {
		var a, b *item
		if os.Getenv("GOPCT_TEST_ALLOC") == "reversed" {
			b = new(item)
			a = new(item)
		} else {
			a = new(item)
			b = new(item)
		}
		m := map[*item]int{}
		MapStore(sMap, m, a, 1)
		MapStore(sMap, m, b, 2)
		for w, _, v := MapWalk(sR, m); w.Next(nil, &v); {
			if v == 2 {
				_ = Load(sR2, &b.n) // a step the other order does not take
			}
		}
		TError(sFail, t, "Errorf", "always")
	})
}

// TestPointerKeyOrderAcrossProcesses: a replay in a fresh process whose
// allocator placed the keys in the other order follows the recorded path
// (sorting such keys by address made it diverge).
func TestPointerKeyOrderAcrossProcesses(t *testing.T) {
	t.Setenv("GOPCT_TEST_ALLOC", "")
	b := mustFind(t, "TestProgPointerKeys", "pct", 1, 1, "fail")
	t.Setenv("GOPCT_TEST_ALLOC", "reversed")
	rec := replayBug(t, "TestProgPointerKeys", b)
	if rec.Diverged != "" || rec.Outcome == nil {
		t.Fatalf("replay with the keys allocated in the other order: diverged %q, outcome %v", rec.Diverged, rec.Outcome)
	}
}

func TestSortKeysInStoreOrder(t *testing.T) {
	type item struct{ n int }
	x, y, z := &item{}, &item{}, &item{1}
	order := keyOrder{}
	order[any(y)] = 0
	order[any(x)] = 1
	keys := []*item{z, x, y}
	sortKeysIn(keys, order)
	if keys[0] != y || keys[1] != x || keys[2] != z {
		t.Fatalf("order %p %p %p, want y x z = %p %p %p", keys[0], keys[1], keys[2], y, x, z)
	}
	// Not stored under control: by pointee, then by address.
	keys = []*item{z, {0}}
	sortKeysIn(keys, nil)
	if keys[1] != z {
		t.Fatalf("pointee order: %v", keys)
	}
	if !holdsAddress(reflect.TypeFor[struct {
		a int
		c chan int
	}]()) || holdsAddress(reflect.TypeFor[struct{ a, b string }]()) {
		t.Fatal("holdsAddress")
	}
}
