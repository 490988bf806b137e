package rwr

import (
	"sync"
	"testing"
)

// The reader is preempted between its two RLock calls, the writer's Lock
// starts waiting, and the reader's second RLock waits behind the writer.
// (c, v, t) = (1, 1, 2).
func TestLookupWhileAdding(t *testing.T) {
	r := NewRegistry()
	r.Add("alice")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.Add("bob")
	}()
	index, size := r.Lookup("alice")
	wg.Wait()
	if index != 0 || size < 1 || size > 2 {
		t.Errorf("Lookup(alice) = %d, %d", index, size)
	}
}
