package cta_balance

import (
	"errors"
	"testing"
)

type wallet interface {
	Withdraw(int) error
	Balance() int
}

func run(t *testing.T, w wallet) {
	errc := make(chan error, 1)
	go func() { errc <- w.Withdraw(60) }() // the mobile app
	err1 := w.Withdraw(60)                 // the web app
	err2 := <-errc
	for _, err := range []error{err1, err2} {
		if err != nil && !errors.Is(err, ErrInsufficient) {
			t.Fatal(err)
		}
	}
	if b := w.Balance(); b != 40 {
		t.Errorf("balance = %d, want 40 (exactly one withdrawal succeeds)", b)
	}
}

func TestBug(t *testing.T) { run(t, &Wallet{balance: 100}) }

func TestFixed(t *testing.T) { run(t, &WalletFixed{balance: 100}) }
