// Package wgaddinside calls WaitGroup.Add inside the goroutine it accounts
// for. If the goroutine has not run its Add when Wait is called, Wait sees a
// zero counter and returns before the work is done. (go vet's waitgroup
// check sees an Add written directly in a go func literal; here, as in real
// code, it hides in the method that the goroutine runs.)
//
// The Sleep "to let the workers start" is what makes this bug rare in a
// native run (and so easy to ship): it is a delay, not synchronisation. Under
// gopct the clock is fake and firing the sleep's timer before a worker has
// run is one of the scheduling choices.
package wgaddinside

import (
	"sync"
	"time"
)

type summer struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	total int
}

func (s *summer) add(part []int) {
	s.wg.Add(1) // BUG: runs in the new goroutine; must precede the go statement
	defer s.wg.Done()
	sum := 0
	for _, v := range part {
		sum += v
	}
	s.mu.Lock()
	s.total += sum
	s.mu.Unlock()
}

// SumParallel adds up all numbers, one goroutine per part.
func SumParallel(parts [][]int) int {
	s := &summer{}
	for _, part := range parts {
		go s.add(part)
	}
	time.Sleep(time.Millisecond) // let the workers start: not a synchronisation
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}
