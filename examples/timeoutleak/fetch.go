// Package timeoutleak leaks a goroutine on a timeout path. Fetch starts a
// worker that sends its result on an unbuffered channel and waits for it with
// a timeout. When the timeout wins, nobody ever receives from the channel and
// the worker is blocked on its send for ever.
package timeoutleak

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the worker is too slow.
var ErrTimeout = errors.New("timeout")

func compute() int { return 42 }

// Fetch returns the worker's result, or ErrTimeout after timeout.
func Fetch(timeout time.Duration) (int, error) {
	ch := make(chan int) // BUG: unbuffered; a send nobody receives blocks for ever
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
