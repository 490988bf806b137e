package select_missing_quit

import "sync"

type WorkerFixed struct {
	jobs    chan string
	quit    chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	handled []string
}

func NewWorkerFixed() *WorkerFixed {
	w := &WorkerFixed{jobs: make(chan string, 8), quit: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *WorkerFixed) run() {
	defer close(w.done)
	for {
		select {
		case j := <-w.jobs:
			w.mu.Lock()
			w.handled = append(w.handled, j)
			w.mu.Unlock()
		case <-w.quit:
			for { // drain jobs submitted before Stop
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
	}
}

func (w *WorkerFixed) Submit(j string) { w.jobs <- j }

func (w *WorkerFixed) Stop() {
	close(w.quit)
	<-w.done
}

func (w *WorkerFixed) Handled() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.handled)
}
