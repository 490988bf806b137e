package send_errpath_commit

import (
	"errors"
	"testing"
)

func TestBug(t *testing.T) {
	w := &Writer{sink: &Sink{}}
	w.Add("a")
	w.Add("b")
	done := make(chan struct{})
	go func() { // shutdown races with the commit
		w.Close()
		close(done)
	}()
	if err := w.Commit(); err != nil && !errors.Is(err, ErrClosed) {
		t.Error(err)
	}
	<-done
}

func TestFixed(t *testing.T) {
	w := &WriterFixed{sink: &Sink{}}
	w.Add("a")
	w.Add("b")
	done := make(chan struct{})
	go func() {
		w.Close()
		close(done)
	}()
	if err := w.Commit(); err != nil && !errors.Is(err, ErrClosed) {
		t.Error(err)
	}
	<-done
}
