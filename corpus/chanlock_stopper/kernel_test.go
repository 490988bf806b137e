package chanlock_stopper

import "testing"

func TestBug(t *testing.T) {
	c := NewCollector()
	recorded := make(chan struct{})
	go func() { // a request handler records its latency
		c.Record(42)
		close(recorded)
	}()
	s := c.Stop()
	<-recorded
	if len(s) > 1 {
		t.Errorf("samples = %v", s)
	}
}

func TestFixed(t *testing.T) {
	c := NewCollectorFixed()
	recorded := make(chan struct{})
	go func() {
		c.Record(42)
		close(recorded)
	}()
	s := c.Stop()
	<-recorded
	if len(s) > 1 {
		t.Errorf("samples = %v", s)
	}
}
