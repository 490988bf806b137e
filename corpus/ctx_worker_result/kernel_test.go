package ctx_worker_result

import (
	"context"
	"errors"
	"testing"
)

func TestBug(t *testing.T) {
	p := NewPool(1)
	ctx, cancel := context.WithCancel(context.Background())
	go cancel() // the client disconnects
	r, err := p.Handle(ctx, "hello")
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Error(err)
	}
	if err == nil && r != "HELLO" {
		t.Errorf("reply = %q", r)
	}
	p.Close()
}

func TestFixed(t *testing.T) {
	p := NewPoolFixed(1)
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	r, err := p.Handle(ctx, "hello")
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Error(err)
	}
	if err == nil && r != "HELLO" {
		t.Errorf("reply = %q", r)
	}
	p.Close()
}
