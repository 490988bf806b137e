// Package manyaccess is a correct test that is heavy for a controlled
// scheduler: 8 goroutines make 1,250 atomic increments each, 10,000 shared
// accesses per execution, and the test checks the total.
package manyaccess

import (
	"sync"
	"sync/atomic"
	"testing"
)

const (
	goroutines = 8
	perG       = 1250
)

func TestManyAccesses(t *testing.T) {
	var n atomic.Int64
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perG {
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := n.Load(); got != goroutines*perG {
		t.Errorf("total = %d, want %d", got, goroutines*perG)
	}
}
