// Package ctx_stream_leak: a watch stream producer sends updates on an
// unbuffered channel without selecting on the context. When the consumer
// stops because its context was cancelled, the producer blocks forever.
package ctx_stream_leak

import (
	"context"
	"sync"
)

type Update struct {
	Key string
	Rev int
}

// Watch streams the given updates to the returned channel.
func Watch(ctx context.Context, updates []Update) <-chan Update {
	out := make(chan Update)
	go func() {
		defer close(out)
		for _, u := range updates {
			if ctx.Err() != nil {
				return
			}
			out <- u // BUG: no select on ctx.Done(); blocks if the consumer left
		}
	}()
	return out
}

// Cache applies a watch stream until the stream ends or ctx is cancelled.
type Cache struct {
	mu   sync.Mutex
	revs map[string]int
}

func (c *Cache) Rev(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.revs[key]
}

func (c *Cache) Run(ctx context.Context, in <-chan Update, warm chan<- struct{}) {
	first := true
	for {
		select {
		case u, ok := <-in:
			if !ok {
				return
			}
			c.mu.Lock()
			c.revs[u.Key] = u.Rev
			c.mu.Unlock()
			if first {
				close(warm)
				first = false
			}
		case <-ctx.Done():
			return
		}
	}
}
