package pct

import (
	"runtime"
	"strings"
)

// runtime.NumGoroutine as the test would see it under go test.
//
// Inside an execution the process also runs gopct's goroutines: the worker's
// (the test's goroutine waiting in runner.runOne, the watchdog, the stop at
// the deadline), the goroutines that host the synctest bubble, the
// scheduler's decision and clock goroutines, and those left blocked in
// earlier executions' bubbles, whose number grows from one execution to the
// next. A test that compares the count with a number, or with the count at
// its start once goroutines came and went, failed under gopct and passed
// under go test: a false report. The instrumenter rewrites
// runtime.NumGoroutine into NumGoroutine, which counts what go test would:
//
//   - the process's goroutines outside every bubble that are not gopct's (go
//     test's main goroutine, waiting in t.Run; goroutines the test binary's
//     init started), as Stack shows them;
//   - the managed goroutines alive, by the scheduler's state, which is the
//     same in every replay: the test's goroutine (until its function and
//     cleanups have returned), its subtests' (a parent waits in t.Run, as
//     under go test), the goroutines it started, AfterFunc callbacks that
//     have started; not one that has exited, even while its real goroutine
//     is still on its way out after handing the token on;
//   - the goroutines of the execution's bubble that gopct does not manage
//     (started by code it does not instrument, such as another module or
//     the standard library), from a dump of every goroutine, as natively:
//     their number is as timing-dependent as it is under go test.
//
// Under go test, a test run alone sees 2 at its start (main and the test's
// goroutine), 3 in a subtest, and one more per goroutine alive.

// NumGoroutine is runtime.NumGoroutine().
func NumGoroutine() int {
	e := current.Load()
	if e == nil {
		return runtime.NumGoroutine()
	}
	dump := fullDump()
	if getg() != e.curGP.Load() || e.aborted.Load() {
		// Not the token holder (a goroutine gopct does not manage, or
		// one of an aborted execution): the scheduler's state is not
		// its to read, and its count is timing-dependent anyway.
		return countTestGoroutines(dump, e.bubble, false)
	}
	return e.managedAlive() + countTestGoroutines(dump, e.bubble, true)
}

// managedAlive is the number of managed goroutines alive as go test would
// count them.
func (e *execution) managedAlive() int {
	n := 0
	for _, g := range e.gs {
		switch {
		case g.state == gDone, g.state == gDormant:
		case g.id == 0 && e.bodyDone:
			// The test function and its cleanups have returned: under go
			// test its goroutine has ended; gopct's waits for the others.
		default:
			n++
		}
	}
	return n
}

// countTestGoroutines counts the goroutines of a dump that go test would
// count, taken in bubble; with skipManaged, not the managed goroutines
// (their caller counts them by the scheduler's state).
func countTestGoroutines(dump, bubble string, skipManaged bool) int {
	n := 0
	for _, block := range splitDump(dump) {
		switch testCount(parseGoroutine(block), bubble) {
		case countProcess, countUnmanaged:
			n++
		case countManaged:
			if !skipManaged {
				n++
			}
		}
	}
	return n
}

// splitDump splits a dump into its goroutines.
func splitDump(dump string) []string {
	dump = strings.TrimRight(dump, "\n")
	if dump == "" {
		return nil
	}
	return strings.Split(dump, "\n\n")
}

// What a goroutine of a dump is to NumGoroutine.
const (
	countNot       = iota // gopct's, or another execution's
	countProcess          // the process's, outside every bubble: main, init's
	countManaged          // a managed goroutine of the execution
	countUnmanaged        // the execution's, not managed
)

// spawnedOutside says whether g, outside every bubble, was started by an
// instrumented go statement outside the executions (rt.spawn runs a plain
// go statement there): a goroutine that init started, as go-zero's
// core/proc does for its signal handler, is the process's, as under go
// test, also while it is inside one of gopct's functions (a receive
// outside the bubble is rt.Recv). It was taken for one of gopct's, and a
// test comparing the count with a number failed under gopct only (sweep
// fresh28, sweep_init_goroutine_count).
func (g goroutine) spawnedOutside() bool {
	return g.created != nil && strings.HasPrefix(g.created.fn, "created by "+rtPrefix+"spawn in ")
}

// signalLoop says whether g is os/signal's delivery loop, which the first
// signal.Notify of a process starts: gopct's runtime calls it before the
// first execution (signals.go), go test only if the test does.
func (g goroutine) signalLoop() bool {
	for _, f := range g.frames {
		if f.name() == "os/signal.loop" {
			return true
		}
	}
	return false
}

// managedEntries are the runtime's functions that run a managed goroutine's
// body: a go statement's (spawn), a subtest's (runSubtest), an AfterFunc
// callback's (adopt).
var managedEntries = []string{rtPrefix + "spawn.func", rtPrefix + "runSubtest.func", rtPrefix + "adopt.func"}

// testCount classifies a goroutine of a dump taken in bubble.
func testCount(g goroutine, bubble string) int {
	switch bubbleOf(g.header) {
	case "":
		if g.spawnedOutside() {
			return countProcess
		}
		if g.signalLoop() && !signalsRegistered.Load() {
			return countNot // started by gopct's runtime (prestartSignals)
		}
		if g.hasRT {
			return countNot
		}
		return countProcess
	case bubble:
	default:
		return countNot
	}
	if g.bubbleHost() {
		return countNot
	}
	if g.created != nil && strings.HasPrefix(g.created.fn, "created by testing/synctest.testingSynctestTest ") {
		return countManaged // the test's goroutine, g0
	}
	for _, f := range g.frames {
		for _, entry := range managedEntries {
			if strings.HasPrefix(f.name(), entry) {
				return countManaged
			}
		}
	}
	if g.created != nil && strings.HasPrefix(g.created.fn, "created by "+rtPrefix) {
		return countNot // a decision goroutine, an unmanaged operation's
	}
	if n := len(g.frames); n > 0 && g.frames[n-1].rt() {
		return countNot // the clock's (time.AfterFunc of a runtime function)
	}
	// Started by code gopct does not instrument; it may be running the
	// test's code, and so the runtime's, at the moment.
	return countUnmanaged
}
