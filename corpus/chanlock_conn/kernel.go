// Package chanlock_conn: a connection's Close holds the connection mutex while
// it hands the stop request to the read loop over an unbuffered channel. A
// read loop that has just received a packet needs the same mutex to record
// it, so neither side can proceed.
package chanlock_conn

import "sync"

type Packet struct {
	Seq  int
	Body string
}

type Conn struct {
	mu      sync.Mutex
	closed  bool
	lastSeq int
	in      chan Packet
	closeCh chan struct{}
	done    chan struct{}
}

func Dial() *Conn {
	c := &Conn{in: make(chan Packet), closeCh: make(chan struct{}), done: make(chan struct{})}
	started := make(chan struct{})
	go c.readLoop(started)
	<-started
	return c
}

func (c *Conn) readLoop(started chan<- struct{}) {
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

// Deliver is called by the network side; it gives up once the conn is closed.
func (c *Conn) Deliver(p Packet) bool {
	select {
	case c.in <- p:
		return true
	case <-c.done:
		return false
	}
}

func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.closeCh <- struct{}{} // BUG: blocking send while holding c.mu
	<-c.done
}

func (c *Conn) LastSeq() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastSeq
}
