package abba_session

import "testing"

func TestBug(t *testing.T) {
	m := NewManager()
	s := m.Open("client-1")
	s.MarkIdle()
	done := make(chan struct{})
	go func() { // the reaper tick
		m.ReapIdle()
		close(done)
	}()
	s.Close() // the client hangs up at the same time
	<-done
	if n := m.Len(); n != 0 {
		t.Errorf("%d sessions left", n)
	}
}

func TestFixed(t *testing.T) {
	m := NewManagerFixed()
	s := m.Open("client-1")
	s.MarkIdle()
	done := make(chan struct{})
	go func() {
		m.ReapIdle()
		close(done)
	}()
	s.Close()
	<-done
	if n := m.Len(); n != 0 {
		t.Errorf("%d sessions left", n)
	}
}
