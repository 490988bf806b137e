// Package wgadd_dispatcher: a job queue's dispatcher goroutine acknowledges a
// job and only then adds the handler goroutine to the WaitGroup. Drain (close
// the queue and wait) can run between the acknowledgement and the Add, so it
// returns while the job is still being handled.
package wgadd_dispatcher

import "sync"

type Job struct {
	ID       int
	accepted chan struct{}
}

type Queue struct {
	jobs     chan Job
	handlers sync.WaitGroup
	mu       sync.Mutex
	done     []int
}

func NewQueue() *Queue {
	q := &Queue{jobs: make(chan Job)}
	go q.dispatch()
	return q
}

func (q *Queue) dispatch() {
	for j := range q.jobs {
		close(j.accepted)
		q.handlers.Add(1) // BUG: the submitter may already be draining
		go q.handle(j)
	}
}

func (q *Queue) handle(j Job) {
	defer q.handlers.Done()
	q.mu.Lock()
	q.done = append(q.done, j.ID)
	q.mu.Unlock()
}

// Submit returns once the dispatcher accepted the job.
func (q *Queue) Submit(id int) {
	j := Job{ID: id, accepted: make(chan struct{})}
	q.jobs <- j
	<-j.accepted
}

// Drain stops the queue and waits for every accepted job.
func (q *Queue) Drain() []int {
	close(q.jobs)
	q.handlers.Wait()
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]int(nil), q.done...)
}
