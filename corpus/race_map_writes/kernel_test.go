package race_map_writes

import (
	"sync"
	"testing"
)

func TestBug(t *testing.T) {
	h := NewHub()
	var wg sync.WaitGroup
	wg.Add(1)
	go Serve(h, "bob", &wg)
	h.Register(&Client{ID: "alice", Send: make(chan []byte, 1)}) // the admin console
	wg.Wait()
	if h.Len() != 2 {
		t.Errorf("%d clients, want 2", h.Len())
	}
}

func TestFixed(t *testing.T) {
	h := NewHubFixed()
	var wg sync.WaitGroup
	wg.Add(1)
	go ServeFixed(h, "bob", &wg)
	h.Register(&Client{ID: "alice", Send: make(chan []byte, 1)})
	wg.Wait()
	if h.Len() != 2 {
		t.Errorf("%d clients, want 2", h.Len())
	}
}
