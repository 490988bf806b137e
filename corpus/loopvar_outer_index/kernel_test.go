package loopvar_outer_index

import "testing"

type pool interface {
	Start()
	Wait()
	Slots() []*Worker
}

func run(t *testing.T, p pool) {
	p.Start()
	p.Wait()
	for i, w := range p.Slots() {
		if w == nil || w.ID != i {
			t.Errorf("slot %d = %+v", i, w)
		}
	}
}

func TestBug(t *testing.T) { run(t, NewPool(2)) }

func TestFixed(t *testing.T) { run(t, NewPoolFixed(2)) }
