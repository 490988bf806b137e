// Package lostupdate is the smallest concurrency bug there is: two goroutines
// increment a shared counter without a lock. If one goroutine is preempted
// between reading the counter and writing it back, an increment is lost.
//
// (c, v, t) = (1, 1, 2).
package lostupdate

import (
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	counter := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counter++ // BUG: read-modify-write without a lock
		}()
	}
	wg.Wait()
	if counter != 2 {
		t.Errorf("counter = %d, want 2: an increment was lost", counter)
	}
}
