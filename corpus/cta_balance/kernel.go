// Package cta_balance: a wallet service checks the balance and debits it in
// two separately locked steps. Two concurrent withdrawals both pass the check
// and the balance goes negative.
package cta_balance

import (
	"errors"
	"sync"
)

var ErrInsufficient = errors.New("insufficient funds")

type Wallet struct {
	mu      sync.Mutex
	balance int
	history []int
}

func (w *Wallet) Balance() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.balance
}

func (w *Wallet) debit(amount int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.balance -= amount
	w.history = append(w.history, -amount)
}

func (w *Wallet) Withdraw(amount int) error {
	if w.Balance() < amount { // BUG: check and debit are separate critical sections
		return ErrInsufficient
	}
	w.debit(amount)
	return nil
}
