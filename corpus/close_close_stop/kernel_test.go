package close_close_stop

import (
	"testing"
	"time"
)

type stopper interface{ Stop() }

func run(t *testing.T, r stopper) {
	signalled := make(chan struct{})
	go func() { // SIGTERM handler
		r.Stop()
		close(signalled)
	}()
	r.Stop() // deferred cleanup in main
	<-signalled
}

func TestBug(t *testing.T) { run(t, NewRefresher(time.Second)) }

func TestFixed(t *testing.T) { run(t, NewRefresherFixed(time.Second)) }
