package cond_lost_wakeup

import "sync"

type GateFixed struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
	addr string
}

func NewGateFixed() *GateFixed {
	g := &GateFixed{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *GateFixed) Wait() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.open { // check and wait in one critical section
		g.cond.Wait()
	}
	return g.addr
}

func (g *GateFixed) Open(addr string) {
	g.mu.Lock()
	g.open = true
	g.addr = addr
	g.mu.Unlock()
	g.cond.Broadcast()
}
