// Package close_close_stop: a background refresher's Stop guards close(quit)
// with an unsynchronized boolean. Stop is called both by the signal handler
// and by the deferred cleanup of main: "close of closed channel".
package close_close_stop

import (
	"sync"
	"time"
)

type Refresher struct {
	quit    chan struct{}
	done    chan struct{}
	stopped bool
	mu      sync.Mutex
	ticks   int
}

func NewRefresher(every time.Duration) *Refresher {
	r := &Refresher{quit: make(chan struct{}), done: make(chan struct{})}
	go r.loop(every)
	return r
}

func (r *Refresher) loop(every time.Duration) {
	defer close(r.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.mu.Lock()
			r.ticks++
			r.mu.Unlock()
		case <-r.quit:
			return
		}
	}
}

func (r *Refresher) Stop() {
	if !r.stopped { // BUG: check-then-close without synchronization
		close(r.quit)
		r.stopped = true
	}
	<-r.done
}
