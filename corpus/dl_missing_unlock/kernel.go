// Package dl_missing_unlock: a connection pool whose Get forgets to release
// its mutex on the "pool closed" error path; the next locker blocks forever.
package dl_missing_unlock

import (
	"errors"
	"sync"
)

var ErrClosed = errors.New("pool: closed")

type Conn struct {
	id     int
	closed bool
}

type Pool struct {
	mu     sync.Mutex
	idle   []*Conn
	dials  int
	closed bool
}

func (p *Pool) Get() (*Conn, error) {
	p.mu.Lock()
	if p.closed {
		return nil, ErrClosed // BUG: returns with p.mu held
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.dials++
	c := &Conn{id: p.dials}
	p.mu.Unlock()
	return c, nil
}

func (p *Pool) Put(c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.closed = true
		return
	}
	p.idle = append(p.idle, c)
}

func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.idle {
		c.closed = true
	}
	p.idle = nil
}
