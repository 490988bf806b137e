package race_slice_append

import (
	"sync"
	"testing"
)

func TestBug(t *testing.T) {
	tr := &Tracer{spans: make([]Span, 0, 4)}
	var wg sync.WaitGroup
	wg.Add(2)
	go Handle(tr, "GET /users", &wg)
	go Handle(tr, "POST /orders", &wg)
	wg.Wait()
	if n := len(tr.Spans()); n != 2 {
		t.Errorf("recorded %d spans, want 2", n)
	}
}

func TestFixed(t *testing.T) {
	tr := &TracerFixed{spans: make([]Span, 0, 4)}
	var wg sync.WaitGroup
	wg.Add(2)
	go HandleFixed(tr, "GET /users", &wg)
	go HandleFixed(tr, "POST /orders", &wg)
	wg.Wait()
	if n := len(tr.Spans()); n != 2 {
		t.Errorf("recorded %d spans, want 2", n)
	}
}
