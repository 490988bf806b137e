package abba_raft_log

import "testing"

func TestBug(t *testing.T) {
	n := NewNode()
	n.Propose("a")
	done := make(chan struct{})
	go func() { // snapshotter
		n.log.Compact()
		close(done)
	}()
	if idx := n.Propose("b"); idx != 2 {
		t.Errorf("index = %d, want 2", idx)
	}
	<-done
	if last := n.log.LastIndex(); last != 2 {
		t.Errorf("last index = %d, want 2", last)
	}
}

func TestFixed(t *testing.T) {
	n := NewNodeFixed()
	n.Propose("a")
	done := make(chan struct{})
	go func() {
		n.log.Compact()
		close(done)
	}()
	if idx := n.Propose("b"); idx != 2 {
		t.Errorf("index = %d, want 2", idx)
	}
	<-done
	if last := n.log.LastIndex(); last != 2 {
		t.Errorf("last index = %d, want 2", last)
	}
}
