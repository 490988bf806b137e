package pct

import (
	"context"
	"os"
	"os/signal"
	"strings"
)

// os/signal inside an execution.
//
// signal.Notify cannot work in a testing/synctest bubble: its first call in
// the process makes the runtime's signal channels and goroutines, which then
// belong to the bubble while a goroutine outside it serves them (Go then
// reports the bubble deadlocked, or dies with "select on synctest channel
// from outside bubble"); and once os/signal runs outside the bubble, a
// signal it delivers to a channel made in the bubble kills the process
// ("send on synctest channel from outside bubble"), or, before it arrives,
// the bubble takes the receiver for blocked for ever: a false deadlock.
// Every execution runs in a bubble, so gopct cannot hunt a test that
// registers a signal handler. Such a test used to end with exit 2 and the
// message of a token holder blocked in code gopct does not instrument, which
// advised -deps, which cannot help: the standard library is not a
// dependency gopct can instrument. The instrumenter rewrites signal.Notify
// and signal.NotifyContext in the code it instruments into SignalNotify and
// SignalNotifyContext, which inside an execution stop it with an
// environment error that says so (exit 2), before os/signal is touched; a
// call from code gopct does not instrument is recognised in the goroutine
// dump when the bubble reports itself deadlocked (signalStuck).

// SignalAdvice says why and what to do, after where (the tool says it too,
// of a worker that died in os/signal's goroutine).
const SignalAdvice = ": os/signal delivers signals from a goroutine outside the test's " +
	"testing/synctest bubble, in which gopct runs every execution, and Go does not allow that " +
	"(the first Notify inside a bubble deadlocks or crashes the process, and a signal sent to " +
	"a channel made inside one crashes it); gopct cannot hunt a test that registers a signal " +
	"handler. Hunt the tests that do not reach signal.Notify, or let the code under test take " +
	"its signal channel (or a context to stop on) from its caller, so that the test can pass " +
	"its own instead of registering one"

// SignalNotify is signal.Notify(c, sig...).
func SignalNotify(site int, c chan<- os.Signal, sig ...os.Signal) {
	if e, g := self(); e != nil {
		e.failSignal(g, site, "signal.Notify")
	}
	signal.Notify(c, sig...)
}

// SignalNotifyContext is signal.NotifyContext(parent, sig...).
func SignalNotifyContext(site int, parent context.Context, sig ...os.Signal) (context.Context, context.CancelFunc) {
	if e, g := self(); e != nil {
		e.failSignal(g, site, "signal.NotifyContext")
	}
	return signal.NotifyContext(parent, sig...)
}

// failSignal ends the execution with the environment error of a signal
// handler registered at site; g stays blocked.
func (e *execution) failSignal(g *G, site int, call string) {
	e.fail(&Failure{Kind: FailUnsupported, Site: site, Goroutine: g.id,
		Message: "the test calls " + call + " at " + sitePos(site) + SignalAdvice})
	<-e.abortCh // never closed: the bubble ends the execution
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
			Message: "the test calls os/signal (signal.Notify) through " + where + SignalAdvice}
	}
	return nil
}
