// Package close_close_future: a future is completed either by the worker
// (Resolve) or by a cancellation watchdog (Fail). Both close the done channel
// and the watchdog's "already done?" test is a check-then-act, so a resolve
// racing with a cancel closes the channel twice.
package close_close_future

import "errors"

var ErrCancelled = errors.New("cancelled")

type Future struct {
	done chan struct{}
	val  string
	err  error
}

func NewFuture() *Future { return &Future{done: make(chan struct{})} }

func (f *Future) Resolve(v string) {
	f.val = v
	close(f.done)
}

// Cancel fails the future unless it already completed.
func (f *Future) Cancel() {
	select {
	case <-f.done:
		return
	default:
	}
	f.err = ErrCancelled // BUG: Resolve may complete between the check and the close
	close(f.done)
}

func (f *Future) Wait() (string, error) {
	<-f.done
	return f.val, f.err
}
