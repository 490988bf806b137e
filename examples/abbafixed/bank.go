// Package abbafixed is abba with a global lock order: Transfer always locks
// the account with the smaller id first, so no cycle of waiting can form.
package abbafixed

import "sync"

// Account is a bank account guarded by its own mutex.
type Account struct {
	id      int
	mu      sync.Mutex
	balance int
}

// Transfer moves amount from one account to the other.
func Transfer(from, to *Account, amount int) {
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
