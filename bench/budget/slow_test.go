// TestSlow is a correct test whose every execution takes seconds (issue 9,
// item 10): -budget must stop a hunt of it within 5% of the budget, build
// included (bench/scripts/budget.sh).
package budget

import (
	"sync"
	"testing"
)

// work burns seconds of CPU per call: one execution of TestSlow takes
// longer than a budget's 5% margin.
func work() int {
	h := 0
	for i := 0; i < 1_500_000_000; i++ {
		h = h*31 + i
	}
	return h
}

func TestSlow(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := work()
			mu.Lock()
			total += h & 1
			mu.Unlock()
		}()
	}
	wg.Wait()
}
