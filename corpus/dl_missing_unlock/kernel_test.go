package dl_missing_unlock

import (
	"errors"
	"testing"
)

func TestBug(t *testing.T) {
	p := &Pool{}
	c1, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { // shutdown signal arrives while requests are in flight
		p.Close()
		close(done)
	}()
	c2, err := p.Get()
	if err != nil && !errors.Is(err, ErrClosed) {
		t.Errorf("Get: %v", err)
	}
	p.Put(c1)
	if c2 != nil {
		p.Put(c2)
	}
	<-done
}

func TestFixed(t *testing.T) {
	p := &PoolFixed{}
	c1, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		p.Close()
		close(done)
	}()
	c2, err := p.Get()
	if err != nil && !errors.Is(err, ErrClosed) {
		t.Errorf("Get: %v", err)
	}
	p.Put(c1)
	if c2 != nil {
		p.Put(c2)
	}
	<-done
}
