package chanlock_stopper

import "sync"

type CollectorFixed struct {
	mu      sync.Mutex
	samples []int
	src     chan int
	quit    chan struct{}
	done    chan struct{}
}

func NewCollectorFixed() *CollectorFixed {
	c := &CollectorFixed{src: make(chan int), quit: make(chan struct{}), done: make(chan struct{})}
	go c.loop()
	return c
}

func (c *CollectorFixed) loop() {
	defer close(c.done)
	for {
		select {
		case <-c.quit:
			return
		case v := <-c.src:
			c.mu.Lock()
			c.samples = append(c.samples, v)
			c.mu.Unlock()
		}
	}
}

func (c *CollectorFixed) Record(v int) {
	select {
	case c.src <- v:
	case <-c.quit:
	}
}

func (c *CollectorFixed) Stop() []int {
	close(c.quit)
	<-c.done // wait without holding the lock
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.samples...)
}
