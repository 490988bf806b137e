package race_map_iterate

import (
	"strings"
	"testing"
)

func TestBug(t *testing.T) {
	c := NewCounters()
	c.Inc("http_requests")
	done := make(chan struct{})
	go func() { // a handler hits a new error path
		c.Inc("http_errors")
		close(done)
	}()
	out := c.Export() // a scrape
	<-done
	if !strings.Contains(out, "http_requests 1") {
		t.Errorf("export:\n%s", out)
	}
}

func TestFixed(t *testing.T) {
	c := NewCountersFixed()
	c.Inc("http_requests")
	done := make(chan struct{})
	go func() {
		c.Inc("http_errors")
		close(done)
	}()
	out := c.Export()
	<-done
	if !strings.Contains(out, "http_requests 1") {
		t.Errorf("export:\n%s", out)
	}
}
