package cta_pool_limit

import "sync"

type PoolFixed struct {
	mu      sync.Mutex
	MaxOpen int
	open    int
	peak    int
	dialed  int
}

func (p *PoolFixed) Acquire() (*Conn, error) {
	p.mu.Lock()
	if p.open >= p.MaxOpen {
		p.mu.Unlock()
		return nil, ErrExhausted
	}
	p.open++ // reserve the slot before dialing
	if p.open > p.peak {
		p.peak = p.open
	}
	p.dialed++
	c := &Conn{id: p.dialed}
	p.mu.Unlock()
	return c, nil
}

func (p *PoolFixed) Release(c *Conn) {
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
}

func (p *PoolFixed) Peak() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}
