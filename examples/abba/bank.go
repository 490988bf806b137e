// Package abba has the classic AB-BA deadlock: Transfer locks the source
// account and then the destination, so two transfers in opposite directions
// can each hold one lock and wait for the other.
package abba

import "sync"

// Account is a bank account guarded by its own mutex.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Transfer moves amount from one account to the other.
func Transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // BUG: the lock order depends on the argument order
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
