package order_ready_addr

import "sync"

type ServerFixed struct {
	mu    sync.Mutex
	addr  string
	ready chan struct{}
	stop  chan struct{}
}

func NewServerFixed() *ServerFixed {
	return &ServerFixed{ready: make(chan struct{}), stop: make(chan struct{})}
}

func (s *ServerFixed) Run() {
	l := listen(&s.mu)
	s.mu.Lock()
	s.addr = l.Addr
	s.mu.Unlock()
	close(s.ready) // announced after everything it promises is in place
	<-s.stop
}

func (s *ServerFixed) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

func (s *ServerFixed) Ready() <-chan struct{} { return s.ready }

func (s *ServerFixed) Stop() { close(s.stop) }
