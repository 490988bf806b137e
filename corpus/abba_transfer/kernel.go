// Package abba_transfer: money transfers lock the source account, then the
// destination account. Two opposite transfers lock in opposite orders.
package abba_transfer

import (
	"errors"
	"sync"
)

var ErrInsufficient = errors.New("insufficient funds")

type Account struct {
	ID      int
	mu      sync.Mutex
	balance int
}

type Bank struct {
	accounts map[int]*Account
}

func NewBank(balances ...int) *Bank {
	b := &Bank{accounts: make(map[int]*Account)}
	for i, bal := range balances {
		b.accounts[i] = &Account{ID: i, balance: bal}
	}
	return b
}

func (b *Bank) Transfer(from, to, amount int) error {
	src, dst := b.accounts[from], b.accounts[to]
	src.mu.Lock() // BUG: lock order depends on the direction of the transfer
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	if src.balance < amount {
		return ErrInsufficient
	}
	src.balance -= amount
	dst.balance += amount
	return nil
}

func (b *Bank) Total() int {
	sum := 0
	for i := 0; i < len(b.accounts); i++ {
		a := b.accounts[i]
		a.mu.Lock()
		sum += a.balance
		a.mu.Unlock()
	}
	return sum
}
