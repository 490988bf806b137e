// Package timeoutfixed is timeoutleak fixed: the result channel has room for
// the one result, so the worker's send never blocks, whoever wins the select.
package timeoutfixed

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the worker is too slow.
var ErrTimeout = errors.New("timeout")

func compute() int { return 42 }

// Fetch returns the worker's result, or ErrTimeout after timeout.
func Fetch(timeout time.Duration) (int, error) {
	ch := make(chan int, 1)
	go func() {
		ch <- compute()
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(timeout):
		return 0, ErrTimeout
	}
}
