package wgadd_inside_start

import "sync"

type ServerFixed struct {
	wg    sync.WaitGroup
	ready chan struct{}
	quit  chan struct{}
	reqs  chan string
	mu    sync.Mutex
	stats Stats
}

func NewServerFixed() *ServerFixed {
	return &ServerFixed{ready: make(chan struct{}), quit: make(chan struct{}), reqs: make(chan string)}
}

func (s *ServerFixed) Start() {
	s.wg.Add(1) // before the go statement
	go func() {
		defer s.wg.Done()
		close(s.ready)
		s.serve()
	}()
	<-s.ready
}

func (s *ServerFixed) serve() {
	for {
		select {
		case <-s.reqs:
			s.mu.Lock()
			s.stats.Served++
			s.mu.Unlock()
		case <-s.quit:
			s.mu.Lock()
			s.stats.Flushed = true
			s.mu.Unlock()
			return
		}
	}
}

func (s *ServerFixed) Shutdown() Stats {
	close(s.quit)
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}
