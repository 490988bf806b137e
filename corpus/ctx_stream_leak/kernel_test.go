package ctx_stream_leak

import (
	"context"
	"testing"
)

var stream = []Update{{"a", 1}, {"a", 2}}

func TestBug(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Cache{revs: make(map[string]int)}
	warm, done := make(chan struct{}), make(chan struct{})
	go func() {
		c.Run(ctx, Watch(ctx, stream), warm)
		close(done)
	}()
	<-warm
	cancel() // the cache is warm; shut the watch down
	<-done
	if r := c.Rev("a"); r < 1 {
		t.Errorf("rev = %d", r)
	}
}

func TestFixed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Cache{revs: make(map[string]int)}
	warm, done := make(chan struct{}), make(chan struct{})
	go func() {
		c.Run(ctx, WatchFixed(ctx, stream), warm)
		close(done)
	}()
	<-warm
	cancel()
	<-done
	if r := c.Rev("a"); r < 1 {
		t.Errorf("rev = %d", r)
	}
}
