// Package cta_pool_limit: a connection pool enforces MaxOpen by checking the
// open count in one critical section and incrementing it in another, after
// dialing. Concurrent acquirers all pass the check and exceed the limit.
package cta_pool_limit

import (
	"errors"
	"sync"
)

var ErrExhausted = errors.New("pool exhausted")

type Conn struct{ id int }

type Pool struct {
	mu      sync.Mutex
	MaxOpen int
	open    int
	peak    int
	dialed  int
}

func (p *Pool) numOpen() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

func (p *Pool) dial() *Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dialed++
	return &Conn{id: p.dialed}
}

func (p *Pool) Acquire() (*Conn, error) {
	if p.numOpen() >= p.MaxOpen { // BUG: the check and the increment below are not atomic
		return nil, ErrExhausted
	}
	c := p.dial()
	p.mu.Lock()
	p.open++
	if p.open > p.peak {
		p.peak = p.open
	}
	p.mu.Unlock()
	return c, nil
}

func (p *Pool) Release(c *Conn) {
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
}

func (p *Pool) Peak() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}
