package chanlock_pubsub

import "testing"

func TestBug(t *testing.T) {
	b := NewBroker()
	got := make(chan string, 1)
	ready := make(chan struct{})
	go func() {
		id, ch := b.Subscribe()
		close(ready)
		got <- <-ch
		b.Unsubscribe(id)
	}()
	<-ready
	b.Publish("leader=n1")
	b.Publish("leader=n2")
	if m := <-got; m != "leader=n1" {
		t.Errorf("got %q", m)
	}
}

func TestFixed(t *testing.T) {
	b := NewBrokerFixed()
	got := make(chan string, 1)
	ready := make(chan struct{})
	go func() {
		id, ch := b.Subscribe()
		close(ready)
		got <- <-ch
		b.Unsubscribe(id)
	}()
	<-ready
	b.Publish("leader=n1")
	b.Publish("leader=n2")
	if m := <-got; m != "leader=n1" {
		t.Errorf("got %q", m)
	}
}
