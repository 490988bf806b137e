package pct

import (
	"runtime/debug"
	"runtime/metrics"
	"slices"
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
// the same race at the same step without leaving the recorded path. The hunt
// pays nothing; a reported race costs one more execution.
//
// The same rerun makes race detection sound with the garbage collector on.
// Shadow state is kept per address, so an object freed and its address
// reused by a new one would inherit the old one's accesses: a false race.
// Detection used to run with the collector off, at the cost of every
// execution's garbage (a HashSet random-walk worker reached 1.8 GB, near
// the 2 GiB limit past which the collector ran anyway). Now a race found
// in an execution during which a collection completed (memory is reused only
// after one) is reported only when the rerun, with the collector off and no
// collection completing, finds it again; one the rerun cannot confirm is
// dropped, never reported: a missed race rather than a false one.

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
	if ev.G != int(t.g) || ev.Site != int(t.site) || clock != int(t.c) || isWrite(ev) != c.write {
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

// confirmRace reruns execution i, which reported the race bug, with the
// collector off, to capture the stack of the race's earlier access and, when
// a collection completed during execution i, to confirm the race. It
// returns the bug to report (with both stacks when the rerun found the same
// race), or nil when a collection may have made the race up and the rerun
// did not confirm it.
func (r *runner) confirmRace(i int, e *execution, bug *BugReport, limits *stepLimits, execs int, body func(*testing.T)) *BugReport {
	d := raceDetectorOf(e)
	if d == nil || d.race == nil || d.race != e.failure {
		return bug // not the detector's
	}
	collected := gcCycles() != d.gcStart
	if r.cfg.Deadline != 0 && time.Until(time.Unix(0, r.cfg.Deadline)) < 2*time.Since(r.start)/time.Duration(max(1, execs)) {
		if collected {
			return nil // no time to confirm it
		}
		return bug
	}
	again, rs := r.rerunCapturing(i, e, d, limits, body)
	f := again.failure
	trusted := rs.diverged == "" && raceDetectorOf(again).gcStart == gcCycles()
	switch {
	case trusted && f != nil && f.Kind == FailRace && f.Key == e.failure.Key && f.Step == e.failure.Step:
		if d2 := raceDetectorOf(again); d2.captured(d2.raceAddr) != "" {
			bug.Stack = f.Stack
		}
		return bug
	case !collected:
		return bug
	case trusted && f != nil && f.Kind == FailRace && f == raceDetectorOf(again).race && !raceSeen(raceDetectorOf(again).pair):
		// The collection's false race hid this one in execution i.
		return again.report()
	}
	return nil
}

// rerunCapturing runs execution i again on its recorded schedule, with the
// collector off and d's earlier access to capture.
func (r *runner) rerunCapturing(i int, e *execution, d *raceDetector, limits *stepLimits, body func(*testing.T)) (*execution, *replayStrategy) {
	cfg := *r.cfg
	cfg.Coverage = false // the rerun is not an execution of the campaign
	saved := r.cfg
	r.cfg = &cfg
	nextCapture = &raceCapture{target: d.prev, write: d.prevWrite, stacks: map[uintptr]string{}}
	defer func() { r.cfg, nextCapture = saved, nil }()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	sched := e.rec.sched
	sched.Trail = slices.Clone(sched.Trail) // the rerun records into the same buffer
	rs := newReplay(sched)
	rs.Begin(i, NewRand(execSeed(cfg.Seed, i)))
	lim := *limits
	return r.execute(i, rs, &lim, nil, body), rs
}

// gcCycles is the number of garbage collections completed so far.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
