package lost_atomic_seq

import "testing"

type proposer interface {
	Propose(string) uint64
	Len() int
}

func run(t *testing.T, l proposer) {
	idxc := make(chan uint64, 1)
	go func() { idxc <- l.Propose("set x=1") }() // a client proposal
	i1 := l.Propose("set y=2")                   // the leader's own no-op
	i2 := <-idxc
	if i1 == i2 {
		t.Errorf("two entries got index %d", i1)
	}
	if n := l.Len(); n != 2 {
		t.Errorf("log has %d entries, want 2", n)
	}
}

func TestBug(t *testing.T) { run(t, NewLog()) }

func TestFixed(t *testing.T) { run(t, NewLogFixed()) }
