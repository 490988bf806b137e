package recv_done_errpath

import "testing"

func TestBug(t *testing.T) {
	a := NewApplier()
	sent := make(chan bool)
	go func() { sent <- a.Submit(Event{2, "y"}) }() // a second replication stream
	a.Submit(Event{1, "x"})
	<-sent
	if err := a.Stop(); err != nil {
		t.Logf("applier stopped with %v", err)
	}
}

func TestFixed(t *testing.T) {
	a := NewApplierFixed()
	sent := make(chan bool)
	go func() { sent <- a.Submit(Event{2, "y"}) }()
	a.Submit(Event{1, "x"})
	<-sent
	if err := a.Stop(); err != nil {
		t.Logf("applier stopped with %v", err)
	}
}
