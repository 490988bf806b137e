// Package wgfixed is wgaddinside fixed: Add is called before the go
// statement, so Wait cannot return before every worker is done.
package wgfixed

import "sync"

type summer struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	total int
}

func (s *summer) add(part []int) {
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
		s.wg.Add(1)
		go s.add(part)
	}
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}
