package chanwg_dispatch

import (
	"context"
	"sync"
)

func dispatchFixed(ctx context.Context, jobs chan<- int, batch []int) {
	defer close(jobs) // closed on every path
	for _, j := range batch {
		jobs <- j
		if ctx.Err() != nil {
			return
		}
	}
}

func ProcessFixed(batch []int, workers int) *Result {
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
					cancel()
					continue
				}
				res.record(j, nil)
			}
		}()
	}
	go dispatchFixed(ctx, jobs, batch)
	wg.Wait()
	return res
}
