package select_missing_quit

import "testing"

func TestBug(t *testing.T) {
	w := NewWorker()
	w.Submit("a")
	w.Submit("b")
	w.Stop()
	if n := w.Handled(); n != 2 {
		t.Errorf("handled %d jobs, want 2", n)
	}
}

func TestFixed(t *testing.T) {
	w := NewWorkerFixed()
	w.Submit("a")
	w.Submit("b")
	w.Stop()
	if n := w.Handled(); n != 2 {
		t.Errorf("handled %d jobs, want 2", n)
	}
}
