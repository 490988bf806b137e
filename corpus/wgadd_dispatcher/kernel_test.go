package wgadd_dispatcher

import "testing"

type queue interface {
	Submit(int)
	Drain() []int
}

func run(t *testing.T, q queue) {
	q.Submit(7)
	if done := q.Drain(); len(done) != 1 || done[0] != 7 {
		t.Errorf("Drain() = %v, want [7]", done)
	}
}

func TestBug(t *testing.T) { run(t, NewQueue()) }

func TestFixed(t *testing.T) { run(t, NewQueueFixed()) }
