// Package select_missing_quit: a job worker re-checks a stop flag between
// jobs but its select has no case for the quit channel, so a worker that is
// already waiting for the next job never notices Stop.
package select_missing_quit

import (
	"sync"
	"sync/atomic"
)

type Worker struct {
	jobs    chan string
	quit    chan struct{}
	done    chan struct{}
	stopped atomic.Bool
	mu      sync.Mutex
	handled []string
}

func NewWorker() *Worker {
	w := &Worker{jobs: make(chan string, 8), quit: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *Worker) run() {
	defer close(w.done)
	for !w.stopped.Load() {
		select {
		case j := <-w.jobs:
			w.mu.Lock()
			w.handled = append(w.handled, j)
			w.mu.Unlock()
			// BUG: no `case <-w.quit:`; a worker parked here misses Stop.
		}
	}
	w.drain()
}

// drain handles jobs submitted before Stop.
func (w *Worker) drain() {
	for {
		select {
		case j := <-w.jobs:
			w.mu.Lock()
			w.handled = append(w.handled, j)
			w.mu.Unlock()
		default:
			return
		}
	}
}

func (w *Worker) Submit(j string) { w.jobs <- j }

func (w *Worker) Stop() {
	w.stopped.Store(true)
	close(w.quit)
	<-w.done
}

func (w *Worker) Handled() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.handled)
}
