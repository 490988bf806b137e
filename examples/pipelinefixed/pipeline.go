// Package pipelinefixed is a correct three-stage pipeline: a generator, two
// squaring workers fanned out from it, and a merge that closes its output
// once both workers are done. Every stage closes what it owns, so nothing is
// sent on a closed channel, nothing leaks and every value is counted once.
package pipelinefixed

import "sync"

func generate(nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			out <- n
		}
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			out <- n * n
		}
	}()
	return out
}

func merge(ins ...<-chan int) <-chan int {
	out := make(chan int)
	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range in {
				out <- v
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// SumOfSquares returns the sum of the squares of nums, computed by the
// pipeline.
func SumOfSquares(nums ...int) int {
	src := generate(nums...)
	sum := 0
	for v := range merge(square(src), square(src)) {
		sum += v
	}
	return sum
}
