package wgadd_inside_start

import "testing"

type server interface {
	Start()
	Shutdown() Stats
}

func run(t *testing.T, s server) {
	s.Start()
	if st := s.Shutdown(); !st.Flushed {
		t.Errorf("Shutdown returned before the final flush: %+v", st)
	}
}

func TestBug(t *testing.T) { run(t, NewServer()) }

func TestFixed(t *testing.T) { run(t, NewServerFixed()) }
