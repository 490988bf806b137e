package ctx_worker_result

import (
	"context"
	"strings"
	"sync"
)

type PoolFixed struct {
	jobs chan job
	wg   sync.WaitGroup
}

func NewPoolFixed(workers int) *PoolFixed {
	p := &PoolFixed{jobs: make(chan job)}
	for i := 0; i < workers; i++ {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

func (p *PoolFixed) worker() {
	defer p.wg.Done()
	for j := range p.jobs {
		select {
		case j.resp <- strings.ToUpper(j.req):
		case <-j.ctx.Done(): // the handler is gone; drop the reply
		}
	}
}

func (p *PoolFixed) Handle(ctx context.Context, req string) (string, error) {
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

func (p *PoolFixed) Close() {
	close(p.jobs)
	p.wg.Wait()
}
