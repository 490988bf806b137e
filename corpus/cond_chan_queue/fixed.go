package cond_chan_queue

import "sync"

// QueueFixed keeps every wake-up condition under the cond's lock.
type QueueFixed struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []string
	closed  bool
	done    chan struct{}
	handled []string
}

func NewQueueFixed() *QueueFixed {
	q := &QueueFixed{done: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *QueueFixed) Push(it string) {
	q.mu.Lock()
	q.items = append(q.items, it)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *QueueFixed) Consume() {
	defer close(q.done)
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.items) == 0 && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			return
		}
		q.handled = append(q.handled, q.items[0])
		q.items = q.items[1:]
	}
}

func (q *QueueFixed) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
	<-q.done
}
