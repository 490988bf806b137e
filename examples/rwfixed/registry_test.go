package rwfixed

import (
	"sync"
	"testing"
)

func TestLookupWhileAdding(t *testing.T) {
	r := NewRegistry()
	r.Add("alice")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.Add("bob")
	}()
	go func() {
		defer wg.Done()
		if n := r.Len(); n < 1 || n > 2 {
			t.Errorf("Len() = %d", n)
		}
	}()
	index, size := r.Lookup("alice")
	wg.Wait()
	if index != 0 || size < 1 || size > 2 {
		t.Errorf("Lookup(alice) = %d, %d", index, size)
	}
}
