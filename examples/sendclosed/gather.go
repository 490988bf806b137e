// Package sendclosed sends on a closed channel. Gather runs one goroutine per
// job; the last job to finish closes the results channel. But a job counts
// itself finished before it has sent its result, so the last job can close
// the channel while another job is about to send: "send on closed channel".
package sendclosed

import "sync"

// Gather runs every job concurrently and returns their results.
func Gather(jobs []func() int) []int {
	results := make(chan int, len(jobs))
	var mu sync.Mutex
	pending := len(jobs)
	for _, job := range jobs {
		go func() {
			v := job()
			mu.Lock()
			pending--
			last := pending == 0
			mu.Unlock()
			results <- v // BUG: must be sent before this job counts as finished
			if last {
				close(results)
			}
		}()
	}
	var out []int
	for v := range results {
		out = append(out, v)
	}
	return out
}
