package cta_pool_limit

import (
	"sync"
	"testing"
)

type acquirer interface {
	Acquire() (*Conn, error)
	Release(*Conn)
	Peak() int
}

// work holds a connection until the test releases all of them.
func work(p acquirer, held chan<- *Conn, wg *sync.WaitGroup) {
	defer wg.Done()
	if c, err := p.Acquire(); err == nil {
		held <- c
	}
}

func run(t *testing.T, p acquirer, max int) {
	held := make(chan *Conn, 3)
	var wg sync.WaitGroup
	wg.Add(3)
	go work(p, held, &wg)
	go work(p, held, &wg)
	work(p, held, &wg)
	wg.Wait()
	close(held)
	for c := range held {
		p.Release(c)
	}
	if p.Peak() > max {
		t.Errorf("peak open connections %d > MaxOpen %d", p.Peak(), max)
	}
}

func TestBug(t *testing.T) { run(t, &Pool{MaxOpen: 2}, 2) }

func TestFixed(t *testing.T) { run(t, &PoolFixed{MaxOpen: 2}, 2) }
