package rwr_metrics

import "testing"

func TestBug(t *testing.T) {
	r := NewRegistry()
	*r.Register("requests") = 3
	done := make(chan struct{})
	go func() { // a handler registers its metric lazily
		r.Register("errors")
		close(done)
	}()
	snap := r.Snapshot()
	<-done
	if snap["requests"] != 3 {
		t.Errorf("snapshot = %v", snap)
	}
}

func TestFixed(t *testing.T) {
	r := NewRegistryFixed()
	*r.Register("requests") = 3
	done := make(chan struct{})
	go func() {
		r.Register("errors")
		close(done)
	}()
	snap := r.Snapshot()
	<-done
	if snap["requests"] != 3 {
		t.Errorf("snapshot = %v", snap)
	}
}
