package loopvar_outer_index

import (
	"fmt"
	"sync"
)

type PoolFixed struct {
	mu      sync.Mutex
	slots   []*Worker
	started chan struct{}
	wg      sync.WaitGroup
}

func NewPoolFixed(n int) *PoolFixed {
	return &PoolFixed{slots: make([]*Worker, n), started: make(chan struct{})}
}

func (p *PoolFixed) register(id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.slots[id] = &Worker{ID: id, Name: fmt.Sprintf("worker-%d", id)}
}

func (p *PoolFixed) Start() {
	for i := 0; i < len(p.slots); i++ { // per-iteration i (Go 1.22)
		p.wg.Add(1)
		go func(id int) { // and passed explicitly
			defer p.wg.Done()
			p.started <- struct{}{}
			p.register(id)
		}(i)
		<-p.started
	}
}

func (p *PoolFixed) Wait() { p.wg.Wait() }

func (p *PoolFixed) Slots() []*Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*Worker(nil), p.slots...)
}
