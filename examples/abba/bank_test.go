package abba

import (
	"sync"
	"testing"
)

// A goroutine preempted between its two Lock calls (holding a, wanting b)
// lets the other take b and block on a: both are blocked for ever.
// (c, v, t) = (1, 1, 2).
func TestOppositeTransfers(t *testing.T) {
	a := &Account{balance: 100}
	b := &Account{balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Transfer(a, b, 10) }()
	go func() { defer wg.Done(); Transfer(b, a, 30) }()
	wg.Wait()
	if a.balance != 120 || b.balance != 80 {
		t.Errorf("balances = %d, %d, want 120, 80", a.balance, b.balance)
	}
}
