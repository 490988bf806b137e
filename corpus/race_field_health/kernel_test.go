package race_field_health

import (
	"errors"
	"sync"
	"testing"
)

func failing() error { return errors.New("db: connection refused") }

func TestBug(t *testing.T) {
	c := &Checker{H: NewHealth(), Probe: failing}
	var wg sync.WaitGroup
	wg.Add(1)
	go c.RunOnce(&wg)
	ok, reason := c.H.Status() // a /healthz request
	if !ok && reason == "" {
		t.Error("unhealthy without a reason")
	}
	wg.Wait()
}

func TestFixed(t *testing.T) {
	c := &CheckerFixed{H: NewHealthFixed(), Probe: failing}
	var wg sync.WaitGroup
	wg.Add(1)
	go c.RunOnce(&wg)
	ok, reason := c.H.Status()
	if !ok && reason == "" {
		t.Error("unhealthy without a reason")
	}
	wg.Wait()
}
