package cta_lazy_init

import "testing"

func TestBug(t *testing.T) {
	d := &Dialer{}
	s := &Service{dialer: d}
	done := make(chan string)
	go func() { done <- s.HandleRequest("bob") }()
	s.HandleRequest("alice")
	<-done
	if n := d.open.Load(); n != 1 {
		t.Errorf("%d database connections opened, want 1", n)
	}
}

func TestFixed(t *testing.T) {
	d := &Dialer{}
	s := &ServiceFixed{dialer: d}
	done := make(chan string)
	go func() { done <- s.HandleRequest("bob") }()
	s.HandleRequest("alice")
	<-done
	if n := d.open.Load(); n != 1 {
		t.Errorf("%d database connections opened, want 1", n)
	}
}
