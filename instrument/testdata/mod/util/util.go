//go:build !never

//go:generate echo nothing to generate

// Package util is imported by lib: it is instrumented transitively.
package util

import (
	syncx "sync"
)

// Counter is a counter with an embedded mutex.
type Counter struct {
	syncx.Mutex
	N int
}

// Inc adds one under the lock.
func (c *Counter) Inc() {
	c.Lock()
	c.N++
	c.Unlock()
}

// Crash panics; the panic must be reported at this file's original line.
func Crash(ch chan int) {
	select {
	case v := <-ch:
		_ = v
	default:
	}
	var m map[string]int
	m["boom"] = 1 // CRASH LINE
}
