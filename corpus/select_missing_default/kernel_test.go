package select_missing_default

import "testing"

func TestBug(t *testing.T) {
	r := NewReporter()
	id, ch := r.Subscribe()
	got := make(chan Snapshot, 1)
	r.Publish(10)
	go func() { // a dashboard that needs one snapshot
		got <- <-ch
		r.Unsubscribe(id)
	}()
	r.Publish(12)
	r.Publish(14)
	if s := <-got; s.Seq != 1 {
		t.Errorf("first snapshot seq = %d", s.Seq)
	}
}

func TestFixed(t *testing.T) {
	r := NewReporterFixed()
	id, ch := r.Subscribe()
	got := make(chan Snapshot, 1)
	r.Publish(10)
	go func() {
		got <- <-ch
		r.Unsubscribe(id)
	}()
	r.Publish(12)
	r.Publish(14)
	if s := <-got; s.Seq != 1 {
		t.Errorf("first snapshot seq = %d", s.Seq)
	}
}
