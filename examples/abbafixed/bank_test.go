package abbafixed

import (
	"sync"
	"testing"
)

func TestOppositeTransfers(t *testing.T) {
	a := &Account{id: 1, balance: 100}
	b := &Account{id: 2, balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Transfer(a, b, 10) }()
	go func() { defer wg.Done(); Transfer(b, a, 30) }()
	wg.Wait()
	if a.balance != 120 || b.balance != 80 {
		t.Errorf("balances = %d, %d, want 120, 80", a.balance, b.balance)
	}
}
