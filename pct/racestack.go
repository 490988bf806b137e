package pct

import (
	"testing"
	"time"
)

// The earlier access of a race is known during the hunt by its goroutine,
// clock and site only: a stack walk at every access, to keep each one's
// stack in case it races later, would cost more than the detection itself.
// Executions are deterministic, so when a race is reported the worker runs
// the execution again on its recorded schedule, with the detector told which
// access to capture: the first access of that goroutine, at that site, with
// that clock value, to each address (later ones in the same epoch leave the
// shadow state as it was, so the first is the one the race names). The
// rerun's report, with both stacks, replaces the first one's when it found
// the same race at the same step without leaving the recorded path; when it
// did not (package state the first run changed), the report keeps the one
// stack. The hunt pays nothing; a reported race costs one more execution.

// raceCapture is what a rerun's detector captures: the stack of each access
// that matches the earlier access of the race being explained.
type raceCapture struct {
	target epoch
	write  bool
	stacks map[uintptr]string // per address: the first matching access's stack
}

// nextCapture is handed to the detector of the next execution (the rerun);
// one execution runs at a time in a worker.
var nextCapture *raceCapture

// note captures the stack of ev when it is the access sought (clock: ev's
// goroutine's own clock component).
func (c *raceCapture) note(ev *Event, clock int) {
	t := c.target
	if ev.G != t.g || ev.Site != t.site || clock != t.c || (ev.Kind == EvWrite) != c.write {
		return
	}
	if _, ok := c.stacks[ev.Obj]; !ok {
		c.stacks[ev.Obj] = "previous " + accessStack(rw(c.write), t)
	}
}

// captured is the stack a rerun captured for the earlier access to addr
// ("" outside a rerun, or when the access was not seen).
func (r *raceDetector) captured(addr uintptr) string {
	if r.capture == nil {
		return ""
	}
	return r.capture.stacks[addr]
}

// raceDetectorOf returns the race detector observing e, if any.
func raceDetectorOf(e *execution) *raceDetector {
	for _, o := range e.obs {
		if r, ok := o.(*raceDetector); ok {
			return r
		}
	}
	return nil
}

// addEarlierStack reruns execution i, which reported the race bug, to
// capture the stack of the race's earlier access, and puts both stacks in
// bug. It does nothing when the execution's failure is not the detector's,
// or when the rerun might not end before the campaign's deadline.
func (r *runner) addEarlierStack(i int, e *execution, bug *BugReport, limits *stepLimits, execs int, body func(*testing.T)) {
	d := raceDetectorOf(e)
	if d == nil || d.race == nil || d.race != e.failure {
		return
	}
	if r.cfg.Deadline != 0 && time.Until(time.Unix(0, r.cfg.Deadline)) < 2*time.Since(r.start)/time.Duration(max(1, execs)) {
		return
	}
	cfg := *r.cfg
	cfg.Coverage = false // the rerun is not an execution of the campaign
	saved := r.cfg
	r.cfg = &cfg
	nextCapture = &raceCapture{target: d.prev, write: d.prevWrite, stacks: map[uintptr]string{}}
	defer func() { r.cfg, nextCapture = saved, nil }()
	rs := newReplay(e.rec.sched)
	rs.Begin(i, NewRand(execSeed(cfg.Seed, i)))
	lim := *limits
	again := r.execute(i, rs, &lim, nil, body)
	f := again.failure
	if rs.diverged != "" || f == nil || f.Kind != FailRace || f.Key != e.failure.Key || f.Step != e.failure.Step {
		return
	}
	if d2 := raceDetectorOf(again); d2 != nil && d2.captured(d2.raceAddr) != "" {
		bug.Stack = f.Stack
	}
}
