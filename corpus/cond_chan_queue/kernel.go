// Package cond_chan_queue: a work queue whose consumer sleeps on a sync.Cond
// while Close signals it through a channel. A consumer that already sleeps in
// cond.Wait never looks at the channel, and Close blocks on its send forever.
package cond_chan_queue

import "sync"

type Queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []string
	stop    chan struct{}
	handled []string
}

func NewQueue() *Queue {
	q := &Queue{stop: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Push(it string) {
	q.mu.Lock()
	q.items = append(q.items, it)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *Queue) Consume() {
	for {
		select {
		case <-q.stop:
			return
		default:
		}
		q.mu.Lock()
		for len(q.items) == 0 {
			q.cond.Wait() // BUG: sleeps on the cond; Close only talks on q.stop
		}
		it := q.items[0]
		q.items = q.items[1:]
		q.handled = append(q.handled, it)
		q.mu.Unlock()
	}
}

// Close hands the stop request to the consumer and returns once it took it.
func (q *Queue) Close() {
	q.stop <- struct{}{}
}
