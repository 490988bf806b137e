// Package chanwg_dispatch: a dispatcher feeds a worker pool and closes the job
// channel when done, but returns without closing it when the batch was
// cancelled (a worker hit a poison job). Workers range over the channel
// forever and the WaitGroup never reaches zero.
package chanwg_dispatch

import (
	"context"
	"errors"
	"sync"
)

var ErrPoison = errors.New("poison job")

type Result struct {
	mu   sync.Mutex
	done []int
	err  error
}

func (r *Result) record(job int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if r.err == nil {
			r.err = err
		}
		return
	}
	r.done = append(r.done, job)
}

func dispatch(ctx context.Context, jobs chan<- int, batch []int) {
	for _, j := range batch {
		jobs <- j
		if ctx.Err() != nil {
			return // BUG: jobs is not closed on the cancellation path
		}
	}
	close(jobs)
}

func Process(batch []int, workers int) *Result {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	jobs := make(chan int, len(batch))
	res := &Result{}
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if j < 0 {
					res.record(j, ErrPoison)
					cancel() // stop the batch
					continue
				}
				res.record(j, nil)
			}
		}()
	}
	go dispatch(ctx, jobs, batch)
	wg.Wait()
	return res
}
