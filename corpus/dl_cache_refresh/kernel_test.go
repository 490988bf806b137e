package dl_cache_refresh

import "testing"

func load(k string) string { return "v:" + k }

func TestBug(t *testing.T) {
	c := NewCache(load)
	c.Get("a") // warm the cache
	done := make(chan struct{})
	go func() {
		c.Invalidate("a") // e.g. a config watcher
		close(done)
	}()
	if v := c.Get("a"); v != "v:a" {
		t.Errorf("Get = %q", v)
	}
	<-done
}

func TestFixed(t *testing.T) {
	c := NewCacheFixed(load)
	c.Get("a")
	done := make(chan struct{})
	go func() {
		c.Invalidate("a")
		close(done)
	}()
	if v := c.Get("a"); v != "v:a" {
		t.Errorf("Get = %q", v)
	}
	<-done
}
