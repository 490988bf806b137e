package chanwg_dispatch

import (
	"errors"
	"testing"
)

func TestBug(t *testing.T) {
	res := Process([]int{-1, 2, 3}, 1)
	if !errors.Is(res.err, ErrPoison) {
		t.Errorf("err = %v, want ErrPoison", res.err)
	}
}

func TestFixed(t *testing.T) {
	res := ProcessFixed([]int{-1, 2, 3}, 1)
	if !errors.Is(res.err, ErrPoison) {
		t.Errorf("err = %v, want ErrPoison", res.err)
	}
}
