package fatalgoroutine

import (
	"sync"
	"testing"
)

// Each spawned goroutine checks the result of its own withdrawal and reports
// an overdraft with t.Errorf from that goroutine. A goroutine preempted
// between the check and the debit lets the other one pass the check too.
// (c, v, t) = (1, 1, 2).
func TestConcurrentWithdrawals(t *testing.T) {
	a := &Account{balance: 10}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, ok := a.Withdraw(10); ok && b < 0 {
				t.Errorf("overdrawn: balance %d after a withdrawal", b)
			}
		}()
	}
	wg.Wait()
}
