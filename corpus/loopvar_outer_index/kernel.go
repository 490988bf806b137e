// Package loopvar_outer_index: a worker pool starts its workers in a loop
// whose index is declared outside the for statement, so Go 1.22's
// per-iteration loop variables do not apply: every closure shares one i.
// A worker that reads i after announcing itself can see the next value.
package loopvar_outer_index

import (
	"fmt"
	"sync"
)

type Worker struct {
	ID   int
	Name string
}

type Pool struct {
	mu      sync.Mutex
	slots   []*Worker
	started chan struct{}
	wg      sync.WaitGroup
}

func NewPool(n int) *Pool {
	return &Pool{slots: make([]*Worker, n), started: make(chan struct{})}
}

func (p *Pool) register(id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.slots[id] = &Worker{ID: id, Name: fmt.Sprintf("worker-%d", id)} // out of range if id == n
}

func (p *Pool) Start() {
	var i int
	for i = 0; i < len(p.slots); i++ { // BUG: one i shared by all closures below
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.started <- struct{}{} // tell Start we are running
			p.register(i)
		}()
		<-p.started
	}
}

func (p *Pool) Wait() { p.wg.Wait() }

func (p *Pool) Slots() []*Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*Worker(nil), p.slots...)
}
