package cta_balance

import "sync"

type WalletFixed struct {
	mu      sync.Mutex
	balance int
	history []int
}

func (w *WalletFixed) Balance() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.balance
}

func (w *WalletFixed) Withdraw(amount int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.balance < amount {
		return ErrInsufficient
	}
	w.balance -= amount
	w.history = append(w.history, -amount)
	return nil
}
