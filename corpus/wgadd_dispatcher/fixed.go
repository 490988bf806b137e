package wgadd_dispatcher

import "sync"

type QueueFixed struct {
	jobs     chan Job
	handlers sync.WaitGroup
	mu       sync.Mutex
	done     []int
}

func NewQueueFixed() *QueueFixed {
	q := &QueueFixed{jobs: make(chan Job)}
	go q.dispatch()
	return q
}

func (q *QueueFixed) dispatch() {
	for j := range q.jobs {
		q.handlers.Add(1) // counted before the job is acknowledged
		close(j.accepted)
		go q.handle(j)
	}
}

func (q *QueueFixed) handle(j Job) {
	defer q.handlers.Done()
	q.mu.Lock()
	q.done = append(q.done, j.ID)
	q.mu.Unlock()
}

func (q *QueueFixed) Submit(id int) {
	j := Job{ID: id, accepted: make(chan struct{})}
	q.jobs <- j
	<-j.accepted
}

func (q *QueueFixed) Drain() []int {
	close(q.jobs)
	q.handlers.Wait()
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]int(nil), q.done...)
}
