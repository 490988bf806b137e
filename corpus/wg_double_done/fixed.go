package wg_double_done

import (
	"sync"
	"sync/atomic"
	"time"
)

type ClientFixed struct {
	Primary, Backup *Replica
	HedgeAfter      time.Duration
}

func (c *ClientFixed) Query(q string) string {
	var wg sync.WaitGroup
	var finished atomic.Bool
	var mu sync.Mutex
	var answer string
	wg.Add(1)
	attempt := func(r *Replica) {
		a := r.Query(q)
		if finished.CompareAndSwap(false, true) { // exactly one winner
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
