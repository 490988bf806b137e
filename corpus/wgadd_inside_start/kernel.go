// Package wgadd_inside_start: a server's accept loop registers itself in the
// server WaitGroup from inside its own goroutine, after announcing that it
// started. Shutdown can reach wg.Wait before the Add, return early, and find
// the final stats not flushed yet.
package wgadd_inside_start

import "sync"

type Stats struct {
	Served  int
	Flushed bool
}

type Server struct {
	wg    sync.WaitGroup
	ready chan struct{}
	quit  chan struct{}
	reqs  chan string
	mu    sync.Mutex
	stats Stats
}

func NewServer() *Server {
	return &Server{ready: make(chan struct{}), quit: make(chan struct{}), reqs: make(chan string)}
}

func (s *Server) Start() {
	go func() {
		close(s.ready)
		s.wg.Add(1) // BUG: Add inside the goroutine, after Start has returned
		defer s.wg.Done()
		s.serve()
	}()
	<-s.ready
}

func (s *Server) serve() {
	for {
		select {
		case <-s.reqs:
			s.mu.Lock()
			s.stats.Served++
			s.mu.Unlock()
		case <-s.quit:
			s.mu.Lock()
			s.stats.Flushed = true // final flush on the way out
			s.mu.Unlock()
			return
		}
	}
}

// Shutdown stops the server and returns the final stats.
func (s *Server) Shutdown() Stats {
	close(s.quit)
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}
