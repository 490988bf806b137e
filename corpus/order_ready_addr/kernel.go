// Package order_ready_addr: a server signals readiness before it publishes
// the address it listens on. A client woken by the ready signal can read the
// address before it is set.
package order_ready_addr

import (
	"fmt"
	"sync"
)

type Listener struct{ Addr string }

var nextPort = 40000

func listen(mu *sync.Mutex) *Listener {
	mu.Lock()
	defer mu.Unlock()
	nextPort++
	return &Listener{Addr: fmt.Sprintf("127.0.0.1:%d", nextPort)}
}

type Server struct {
	mu    sync.Mutex
	addr  string
	ready chan struct{}
	stop  chan struct{}
}

func NewServer() *Server {
	return &Server{ready: make(chan struct{}), stop: make(chan struct{})}
}

func (s *Server) Run() {
	l := listen(&s.mu)
	close(s.ready) // BUG: readiness is announced before the address is published
	s.mu.Lock()
	s.addr = l.Addr
	s.mu.Unlock()
	<-s.stop
}

func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

func (s *Server) Ready() <-chan struct{} { return s.ready }

func (s *Server) Stop() { close(s.stop) }
