// Package corner is the corner-variables experiment of ISSTA'13 Figure 6:
// two goroutines update a hot variable (under a lock) many times and a cold
// one once each, without the lock. The lost update on the cold one is a
// (c, v, t) = (1, 1, 2) bug. The tests differ only in how many hot
// accesses surround the cold one, so the cold variable's share of the
// memory accesses shrinks from test to test.
package corner

import (
	"sync"
	"testing"
)

var (
	mu   sync.Mutex
	hot  int
	cold int
)

// run starts two workers; each does h locked increments of hot, one
// unlocked increment of cold (the bug), and h more of hot.
func run(t *testing.T, h int) {
	hot, cold = 0, 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range h {
				mu.Lock()
				hot++
				mu.Unlock()
			}
			cold++ // BUG: no lock
			for range h {
				mu.Lock()
				hot++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if cold != 2 {
		t.Fatalf("cold = %d, want 2 (hot = %d)", cold, hot)
	}
}

func TestHot1(t *testing.T)   { run(t, 1) }
func TestHot4(t *testing.T)   { run(t, 4) }
func TestHot16(t *testing.T)  { run(t, 16) }
func TestHot64(t *testing.T)  { run(t, 64) }
func TestHot256(t *testing.T) { run(t, 256) }
