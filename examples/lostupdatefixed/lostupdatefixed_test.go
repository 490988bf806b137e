// Package lostupdatefixed is lostupdate with the increment under a mutex: no
// interleaving loses an update.
package lostupdatefixed

import (
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	var mu sync.Mutex
	counter := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			counter++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if counter != 2 {
		t.Errorf("counter = %d, want 2", counter)
	}
}
