package close_close_stop

import (
	"sync"
	"time"
)

type RefresherFixed struct {
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	mu       sync.Mutex
	ticks    int
}

func NewRefresherFixed(every time.Duration) *RefresherFixed {
	r := &RefresherFixed{quit: make(chan struct{}), done: make(chan struct{})}
	go r.loop(every)
	return r
}

func (r *RefresherFixed) loop(every time.Duration) {
	defer close(r.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.mu.Lock()
			r.ticks++
			r.mu.Unlock()
		case <-r.quit:
			return
		}
	}
}

func (r *RefresherFixed) Stop() {
	r.stopOnce.Do(func() { close(r.quit) })
	<-r.done
}
