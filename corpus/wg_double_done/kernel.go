// Package wg_double_done: a hedged request sends the query to a primary and,
// after a hedge delay, to a backup replica; the first answer wins and releases
// the caller through a WaitGroup. The "first answer" check is a check-then-act,
// so both attempts may call Done: "sync: negative WaitGroup counter".
package wg_double_done

import (
	"sync"
	"sync/atomic"
	"time"
)

type Replica struct {
	Name string
}

func (r *Replica) Query(q string) string { return r.Name + ":" + q }

type Client struct {
	Primary, Backup *Replica
	HedgeAfter      time.Duration
}

func (c *Client) Query(q string) string {
	var wg sync.WaitGroup
	var finished atomic.Bool
	var mu sync.Mutex
	var answer string
	wg.Add(1)
	attempt := func(r *Replica) {
		a := r.Query(q)
		if !finished.Load() { // BUG: check-then-act; both attempts can get here
			finished.Store(true)
			mu.Lock()
			answer = a
			mu.Unlock()
			wg.Done()
		}
	}
	go attempt(c.Primary)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // the hedge
		select {
		case <-time.After(c.HedgeAfter):
			if !finished.Load() {
				attempt(c.Backup)
			}
		case <-stop:
		}
	}()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return answer
}
