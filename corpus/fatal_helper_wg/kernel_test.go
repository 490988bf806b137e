package fatal_helper_wg

import (
	"sync"
	"testing"
)

type cache interface {
	Set(k, v string, ttl int)
	Get(k string) (string, error)
	Sweep() int
}

func mustGet(t *testing.T, c cache, k string) string {
	t.Helper()
	v, err := c.Get(k)
	if err != nil {
		t.Fatalf("Get(%q) right after Set: %v", k, err)
	}
	return v
}

func TestBug(t *testing.T) {
	c := NewCache()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.Set("session:42", "alice", 10)
		if v := mustGet(t, c, "session:42"); v != "alice" { // BUG (test): may FailNow here...
			t.Errorf("got %q", v)
		}
		wg.Done() // ...and then this never runs
	}()
	c.Sweep() // the janitor tick
	wg.Wait()
}

func TestFixed(t *testing.T) {
	c := NewCacheFixed()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := func() error {
			c.Set("session:42", "alice", 10)
			v, err := c.Get("session:42")
			if err == nil && v != "alice" {
				t.Errorf("got %q", v)
			}
			return err
		}(); err != nil {
			t.Errorf("Get right after Set: %v", err) // Errorf, not Fatalf, off the test goroutine
		}
	}()
	c.Sweep()
	wg.Wait()
}
