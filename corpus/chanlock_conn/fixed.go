package chanlock_conn

import "sync"

type ConnFixed struct {
	mu      sync.Mutex
	closed  bool
	lastSeq int
	in      chan Packet
	closeCh chan struct{}
	done    chan struct{}
}

func DialFixed() *ConnFixed {
	c := &ConnFixed{in: make(chan Packet), closeCh: make(chan struct{}), done: make(chan struct{})}
	started := make(chan struct{})
	go c.readLoop(started)
	<-started
	return c
}

func (c *ConnFixed) readLoop(started chan<- struct{}) {
	defer close(c.done)
	close(started)
	for {
		select {
		case <-c.closeCh:
			return
		case p := <-c.in:
			c.mu.Lock()
			if p.Seq > c.lastSeq {
				c.lastSeq = p.Seq
			}
			c.mu.Unlock()
		}
	}
}

func (c *ConnFixed) Deliver(p Packet) bool {
	select {
	case c.in <- p:
		return true
	case <-c.done:
		return false
	}
}

func (c *ConnFixed) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	close(c.closeCh) // signal and wait with the lock released
	<-c.done
}

func (c *ConnFixed) LastSeq() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastSeq
}
