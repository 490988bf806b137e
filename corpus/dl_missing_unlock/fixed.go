package dl_missing_unlock

import "sync"

type PoolFixed struct {
	mu     sync.Mutex
	idle   []*Conn
	dials  int
	closed bool
}

func (p *PoolFixed) Get() (*Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return c, nil
	}
	p.dials++
	return &Conn{id: p.dials}, nil
}

func (p *PoolFixed) Put(c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.closed = true
		return
	}
	p.idle = append(p.idle, c)
}

func (p *PoolFixed) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.idle {
		c.closed = true
	}
	p.idle = nil
}
