package close_close_future

import (
	"errors"
	"testing"
)

type future interface {
	Resolve(string)
	Cancel()
	Wait() (string, error)
}

func run(t *testing.T, f future) {
	cancelled := make(chan struct{})
	go func() { // the client's context is cancelled
		f.Cancel()
		close(cancelled)
	}()
	f.Resolve("result") // the worker finishes
	<-cancelled
	v, err := f.Wait()
	if err == nil && v != "result" || err != nil && !errors.Is(err, ErrCancelled) {
		t.Errorf("Wait() = %q, %v", v, err)
	}
}

func TestBug(t *testing.T) { run(t, NewFuture()) }

func TestFixed(t *testing.T) { run(t, NewFutureFixed()) }
