package abba_transfer

import "testing"

func TestBug(t *testing.T) {
	b := NewBank(100, 100)
	done := make(chan error, 1)
	go func() { done <- b.Transfer(1, 0, 30) }()
	if err := b.Transfer(0, 1, 50); err != nil {
		t.Error(err)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	if got := b.Total(); got != 200 {
		t.Errorf("total = %d, want 200", got)
	}
}

func TestFixed(t *testing.T) {
	b := NewBankFixed(100, 100)
	done := make(chan error, 1)
	go func() { done <- b.Transfer(1, 0, 30) }()
	if err := b.Transfer(0, 1, 50); err != nil {
		t.Error(err)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	if got := b.Total(); got != 200 {
		t.Errorf("total = %d, want 200", got)
	}
}
