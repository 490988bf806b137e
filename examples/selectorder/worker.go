// Package selectorder assumes an order between the cases of a select. The
// worker's loop takes a job or a quit signal; the code assumes that a job
// sent before quit was closed is always handled first. When both are ready,
// select picks either case, and the worker may quit with a job left in the
// queue.
package selectorder

// Worker adds up the jobs it receives.
type Worker struct {
	jobs    chan int
	quit    chan struct{}
	started chan struct{}
	done    chan struct{}
	sum     int
}

// StartWorker starts a worker and returns it.
func StartWorker() *Worker {
	w := &Worker{
		jobs:    make(chan int, 1),
		quit:    make(chan struct{}),
		started: make(chan struct{}),
		done:    make(chan struct{}),
	}
	go w.run()
	return w
}

func (w *Worker) run() {
	close(w.started)
	for {
		select {
		case j := <-w.jobs:
			w.sum += j
		case <-w.quit: // BUG: may win over a job that is already queued
			close(w.done)
			return
		}
	}
}

// Stop asks the worker to quit, waits for it and returns the sum.
func (w *Worker) Stop() int {
	close(w.quit)
	<-w.done
	return w.sum
}
