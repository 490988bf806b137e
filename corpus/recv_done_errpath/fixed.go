package recv_done_errpath

import "errors"

var errGap = errors.New("gap in event versions")

type ApplierFixed struct {
	events  chan Event
	quit    chan struct{}
	done    chan struct{}
	version int
	state   map[string]int
	err     error
}

func NewApplierFixed() *ApplierFixed {
	a := &ApplierFixed{
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

func (a *ApplierFixed) apply(ev Event) error {
	if ev.Version <= a.version {
		return nil
	}
	if ev.Version != a.version+1 {
		return errGap
	}
	a.version = ev.Version
	a.state[ev.Key]++
	return nil
}

func (a *ApplierFixed) run(started chan<- struct{}) {
	defer close(a.done) // closed on every exit path
	close(started)
	for {
		select {
		case <-a.quit:
			return
		case ev := <-a.events:
			if err := a.apply(ev); err != nil {
				a.err = err
				return
			}
		}
	}
}

func (a *ApplierFixed) Submit(ev Event) bool {
	select {
	case a.events <- ev:
		return true
	case <-a.done:
		return false
	}
}

func (a *ApplierFixed) Stop() error {
	close(a.quit)
	<-a.done
	return a.err
}
