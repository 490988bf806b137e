package cond_lost_wakeup

import "testing"

func TestBug(t *testing.T) {
	s := &Server{ready: NewGate()}
	go s.ListenAndServe("127.0.0.1:7000")
	if addr := s.ready.Wait(); addr != "127.0.0.1:7000" {
		t.Errorf("addr = %q", addr)
	}
}

func TestFixed(t *testing.T) {
	g := NewGateFixed()
	go g.Open("127.0.0.1:7000")
	if addr := g.Wait(); addr != "127.0.0.1:7000" {
		t.Errorf("addr = %q", addr)
	}
}
