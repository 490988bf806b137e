package send_timeout_leak

import (
	"errors"
	"testing"
	"time"
)

func TestBug(t *testing.T) {
	c := &Client{backend: echo{}, timeout: 50 * time.Millisecond}
	r, err := c.Call("ping")
	if err != nil && !errors.Is(err, ErrTimeout) {
		t.Fatal(err)
	}
	if err == nil && r != "re:ping" {
		t.Errorf("reply = %q", r)
	}
}

func TestFixed(t *testing.T) {
	c := &ClientFixed{backend: echo{}, timeout: 50 * time.Millisecond}
	r, err := c.Call("ping")
	if err != nil && !errors.Is(err, ErrTimeout) {
		t.Fatal(err)
	}
	if err == nil && r != "re:ping" {
		t.Errorf("reply = %q", r)
	}
}
