// Package fatalgoroutine reports a failure from a goroutine the test spawned,
// after a racy check-then-act: Withdraw checks the balance and debits it in
// two separate critical sections, so two withdrawals can both pass the check.
package fatalgoroutine

import "sync"

// Account is a bank account.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Withdraw debits amount if the balance covers it, and returns the new
// balance and whether the withdrawal happened.
func (a *Account) Withdraw(amount int) (int, bool) {
	a.mu.Lock()
	enough := a.balance >= amount
	a.mu.Unlock()
	if !enough {
		return 0, false
	}
	// BUG: the balance can change between the check above and the debit.
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance -= amount
	return a.balance, true
}
