// Package ctx_worker_result: request handlers hand jobs to a worker pool and
// wait for the reply or for the request context. A worker replies on an
// unbuffered channel without looking at the context: when the client has
// gone, the worker blocks forever and Close waits for it forever.
package ctx_worker_result

import (
	"context"
	"strings"
	"sync"
)

type job struct {
	ctx  context.Context
	req  string
	resp chan string
}

type Pool struct {
	jobs chan job
	wg   sync.WaitGroup
}

func NewPool(workers int) *Pool {
	p := &Pool{jobs: make(chan job)}
	for i := 0; i < workers; i++ {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	defer p.wg.Done()
	for j := range p.jobs {
		j.resp <- strings.ToUpper(j.req) // BUG: blocks if the handler gave up
	}
}

func (p *Pool) Handle(ctx context.Context, req string) (string, error) {
	j := job{ctx: ctx, req: req, resp: make(chan string)}
	select {
	case p.jobs <- j:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	select {
	case r := <-j.resp:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (p *Pool) Close() {
	close(p.jobs)
	p.wg.Wait()
}
