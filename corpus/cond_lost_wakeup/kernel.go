// Package cond_lost_wakeup: a readiness gate built on sync.Cond checks the
// condition in one critical section and waits in another; an Open (and its
// Broadcast) that lands in between is lost and the waiter sleeps forever.
package cond_lost_wakeup

import "sync"

type Gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
	addr string
}

func NewGate() *Gate {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *Gate) isOpen() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open
}

// Wait blocks until the gate is open and returns the published address.
func (g *Gate) Wait() string {
	if !g.isOpen() {
		// BUG: the check above and the Wait below are separate critical
		// sections; a Broadcast in between is missed.
		g.mu.Lock()
		g.cond.Wait()
		g.mu.Unlock()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.addr
}

func (g *Gate) Open(addr string) {
	g.mu.Lock()
	g.open = true
	g.addr = addr
	g.mu.Unlock()
	g.cond.Broadcast()
}

// Server publishes its address once it is listening.
type Server struct {
	ready *Gate
}

func (s *Server) ListenAndServe(addr string) {
	s.ready.Open(addr)
}
