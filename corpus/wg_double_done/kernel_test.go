package wg_double_done

import (
	"testing"
	"time"
)

func TestBug(t *testing.T) {
	c := &Client{Primary: &Replica{"p"}, Backup: &Replica{"b"}, HedgeAfter: 5 * time.Millisecond}
	if a := c.Query("x"); a != "p:x" && a != "b:x" {
		t.Errorf("answer = %q", a)
	}
}

func TestFixed(t *testing.T) {
	c := &ClientFixed{Primary: &Replica{"p"}, Backup: &Replica{"b"}, HedgeAfter: 5 * time.Millisecond}
	if a := c.Query("x"); a != "p:x" && a != "b:x" {
		t.Errorf("answer = %q", a)
	}
}
