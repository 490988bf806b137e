package lost_map_rmw

import (
	"sync"
	"testing"
)

func TestBug(t *testing.T) {
	s := NewStore()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); AddToCart(s, "sess-1", "book") }()
	AddToCart(s, "sess-1", "pen") // double-click in another tab
	wg.Wait()
	if c := s.Load("sess-1"); len(c.Items) != 2 {
		t.Errorf("cart = %v, want 2 items", c.Items)
	}
}

func TestFixed(t *testing.T) {
	s := NewStoreFixed()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); AddToCartFixed(s, "sess-1", "book") }()
	AddToCartFixed(s, "sess-1", "pen")
	wg.Wait()
	if c := s.Load("sess-1"); len(c.Items) != 2 {
		t.Errorf("cart = %v, want 2 items", c.Items)
	}
}
