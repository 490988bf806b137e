// Package chanlock_stopper: a sample collector whose Stop holds the collector
// mutex while it waits for the loop goroutine to exit; the loop needs that
// mutex to record a sample it has just received.
package chanlock_stopper

import "sync"

type Collector struct {
	mu      sync.Mutex
	samples []int
	src     chan int
	quit    chan struct{}
	done    chan struct{}
}

func NewCollector() *Collector {
	c := &Collector{src: make(chan int), quit: make(chan struct{}), done: make(chan struct{})}
	go c.loop()
	return c
}

func (c *Collector) loop() {
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

// Record offers a sample; it is dropped if the collector stopped.
func (c *Collector) Record(v int) {
	select {
	case c.src <- v:
	case <-c.quit:
	}
}

// Stop stops the loop and returns the samples.
func (c *Collector) Stop() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.quit)
	<-c.done // BUG: waits for the loop while holding c.mu, which the loop may need
	return append([]int(nil), c.samples...)
}
