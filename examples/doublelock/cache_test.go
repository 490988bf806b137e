package doublelock

import (
	"sync"
	"testing"
)

// If the invalidator runs before Get (the test goroutine is preempted at the
// go statement), Get misses and locks c.mu twice: deadlock.
// (c, v, t) = (1, 1, 2).
func TestGetWhileInvalidating(t *testing.T) {
	c := NewCache()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Invalidate()
	}()
	if got := c.Get(); got != 42 {
		t.Errorf("Get() = %d, want 42", got)
	}
	wg.Wait()
}
