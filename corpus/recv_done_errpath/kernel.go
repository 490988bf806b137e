// Package recv_done_errpath: a replication applier goroutine closes its done
// channel when asked to quit, but returns without closing it when applying an
// out-of-order event fails. Submit and Stop then wait on done forever.
package recv_done_errpath

import "fmt"

type Event struct {
	Version int
	Key     string
}

type Applier struct {
	events  chan Event
	quit    chan struct{}
	done    chan struct{}
	version int
	state   map[string]int
	err     error
}

func NewApplier() *Applier {
	a := &Applier{
		events: make(chan Event),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
		state:  make(map[string]int),
	}
	started := make(chan struct{})
	go a.run(started)
	<-started
	return a
}

func (a *Applier) apply(ev Event) error {
	if ev.Version <= a.version {
		return nil // duplicate
	}
	if ev.Version != a.version+1 {
		return fmt.Errorf("gap: have %d, got %d", a.version, ev.Version)
	}
	a.version = ev.Version
	a.state[ev.Key]++
	return nil
}

func (a *Applier) run(started chan<- struct{}) {
	close(started)
	for {
		select {
		case <-a.quit:
			close(a.done)
			return
		case ev := <-a.events:
			if err := a.apply(ev); err != nil {
				a.err = err
				return // BUG: done is never closed on the error path
			}
		}
	}
}

// Submit delivers ev unless the applier has stopped.
func (a *Applier) Submit(ev Event) bool {
	select {
	case a.events <- ev:
		return true
	case <-a.done:
		return false
	}
}

func (a *Applier) Stop() error {
	close(a.quit)
	<-a.done
	return a.err
}
