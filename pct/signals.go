package pct

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"time"
)

// os/signal inside an execution.
//
// os/signal's first Notify in a process starts the runtime's signal-mask
// goroutine and os/signal's delivery loop, with channels of their own; made
// inside a testing/synctest bubble, those belong to the bubble while the
// goroutines serving them do not (Go then reports the bubble deadlocked, or
// dies with "select on synctest channel from outside bubble" in
// runtime.ensureSigM). Every execution runs in a bubble, so gopct used to
// stop any test that registered a signal handler with exit 2: go.uber.org/
// fx's app tests (its App starts a relay on SIGINT and SIGTERM), armon/go-
// metrics' TestInmemSignal, and every server whose Run waits on
// signal.NotifyContext. Started once, before the first execution and outside
// every bubble (prestartSignals, a warm-up), the machinery is nobody's, and
// a Notify inside an execution only adds the test's channel to os/signal's
// table: the test runs as under go test, whether gopct instruments the call
// or not.
//
// What cannot work is a signal delivered during an execution (a test that
// sends one to itself): os/signal's loop, outside the bubble, then sends to
// a channel made inside it, and the runtime kills the process ("send on
// synctest channel from outside bubble"); the tool recognises that death
// and says so (campaign/signals.go), with SignalAdvice, exit 2. A goroutine
// that waits for that signal may be taken for blocked for ever before the
// loop gets to it: an execution whose instrumented code registered a
// handler (signalsOn) and ends with every goroutine blocked waits a moment
// of real time before it reports a deadlock or a leak (settleSignals), so
// that a signal on its way kills the process first.

// prestartSignal is the signal whose Notify and Stop start os/signal's
// machinery outside every bubble: one that no test is expected to receive,
// handled by Go only between the two calls.
var prestartSignal os.Signal = os.Interrupt

// prestartSignals starts os/signal's goroutines outside every bubble.
func prestartSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, prestartSignal)
	signal.Stop(c)
}

func init() { RegisterWarmUp(prestartSignals) }

// SignalAdvice says why and what to do, after where (the tool says it of a
// worker that died in os/signal's goroutine, campaign/signals.go).
const SignalAdvice = ": os/signal serves the test from goroutines outside the testing/synctest bubble " +
	"in which gopct runs every execution, and Go does not allow a signal to reach a channel made inside " +
	"a bubble (the runtime kills the process); gopct runs tests that register signal handlers, not tests " +
	"that send themselves signals. Hunt the tests that do not, or let the code under test take its " +
	"signal channel (or a context to stop on) from its caller, so that the test can pass its own " +
	"and send on it instead of signalling the process"

// SignalNotify is signal.Notify(c, sig...).
func SignalNotify(site int, c chan<- os.Signal, sig ...os.Signal) {
	noteSignals()
	signal.Notify(c, sig...)
}

// SignalNotifyContext is signal.NotifyContext(parent, sig...).
func SignalNotifyContext(site int, parent context.Context, sig ...os.Signal) (context.Context, context.CancelFunc) {
	noteSignals()
	return signal.NotifyContext(parent, sig...)
}

// noteSignals marks the caller's execution as one that registered a
// signal handler, and the process as one whose test code started
// os/signal (NumGoroutine then counts its loop, as go test does).
func noteSignals() {
	signalsRegistered.Store(true)
	if e, _ := self(); e != nil {
		e.signalsOn = true
	}
}

// signalsRegistered: instrumented code of this process called
// signal.Notify or signal.NotifyContext.
var signalsRegistered atomic.Bool

// signalGrace is how long an execution with a signal handler registered
// waits, in real time, before it reports every goroutine blocked: longer
// than os/signal's loop takes to deliver a signal already sent.
const signalGrace = 300 * time.Millisecond

// settleSignals gives a signal on its way the time to arrive (and kill the
// process) before e reports a deadlock or a leak.
func (e *execution) settleSignals() {
	if e.signalsOn {
		time.Sleep(signalGrace)
	}
}

// signalStuck is the failure of an execution whose bubble reported itself
// deadlocked while one of its goroutines was inside os/signal (called from
// code gopct does not instrument), found in a dump of every goroutine
// taken after the bubble's panic (its goroutines stay blocked); nil if
// none was.
func (e *execution) signalStuck() *Failure {
	for _, block := range splitDump(fullDump()) {
		g := parseGoroutine(block)
		if bubbleOf(g.header) != e.bubble {
			continue
		}
		var lines []string
		in := false
		for _, f := range g.frames {
			in = in || strings.HasPrefix(f.name(), "os/signal.")
			lines = append(lines, f.fn, f.loc)
		}
		if !in {
			continue
		}
		where := firstUserFrame(lines)
		if where == "" {
			where = "code gopct does not instrument"
		}
		return &Failure{Kind: FailUnsupported, Site: -1,
			Message: "the test is blocked inside os/signal, called through " + where + SignalAdvice}
	}
	return nil
}
