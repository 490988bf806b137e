package pct

import (
	"fmt"
	"time"
)

// A token holder blocked inside code gopct does not instrument.
//
// Code gopct does not instrument (another module, the standard library)
// runs natively while its caller holds the token, and may block there: a
// select on a timer's channel, a time.Sleep. The other goroutines wait for
// their turn, durably blocked, so the bubble finds every goroutine blocked
// and moves its clock to the next timer, and the holder wakes with the
// token still in hand: the clock ran while goroutines could run, and none
// of them did. client-go's workqueue tests poll with k8s.io/apimachinery's
// wait.Poll (1 ms apart, 10 s at most) for the queue's waitingLoop
// goroutine to take an entry; the loop, created but never scheduled, did
// not run in 10 s of the clock, and gopct reported "timed out waiting for
// the condition" at execution #0 with no preemption, which no real run
// shows (the loop runs during the test's first 1 ms sleep).
//
// The clock moves while a goroutine holds the token only when the holder
// blocked natively (time passes only when every goroutine of the bubble is
// durably blocked; gopct's own waits hand the token off first). So the
// holder notes the clock whenever it is given or keeps the token
// (tenureAt), and at its next decision, and when it records a failure, it
// compares: a clock that moved by more than -max-delay while other
// goroutines could run (enabled when the tenure began, or woken since by
// code gopct does not see) delayed them longer than the schedules gopct
// assumes, and the execution is given up (a step limit's verdict:
// it says nothing about the test). Within the bound, it is a delay like a
// timer that fires early. The remedy is to instrument that code: -deps
// auto,MODULE. Testscript sweep_held_native_wait.

// startTenure notes the clock as next, the goroutine chosen among n
// enabled ones (nil: time passes), holds the token; othersAtTenure says
// whether others could run then.
func (e *execution) startTenure(next *G, n int) {
	if next == nil || e.maxDelay <= 0 || e.lazyTime {
		e.tenureAt = time.Time{}
		return
	}
	e.tenureAt = now()
	e.othersAtTenure = n > 1
}

// othersWaited says whether goroutines other than the holder could run
// during its tenure: enabled when it began, or woken since by code gopct
// does not see (a fake clock's Step, uninstrumented, sends on the channel
// a goroutine selects on: it comes back and waits in pending until the
// holder's next decision).
func (e *execution) othersWaited() bool {
	if e.othersAtTenure {
		return true
	}
	e.mu.Lock()
	n := len(e.pending)
	e.mu.Unlock()
	return n > 0
}

// heldTooLong gives up the execution when the clock ran past -max-delay
// while g, the holder, held the token since tenureAt.
func (e *execution) heldTooLong(g *G) bool {
	f := e.heldFailure(g)
	if f == nil {
		return false
	}
	e.fail(f)
	return true
}

// heldFailure is the failure that gives the execution up when the clock
// moved more than -max-delay during g's tenure, nil otherwise.
func (e *execution) heldFailure(g *G) *Failure {
	d := now().Sub(e.tenureAt)
	if d <= e.maxDelay+sleepOvershoot || !e.othersWaited() {
		return nil
	}
	e.tenureAt = time.Time{}
	return &Failure{Kind: FailStepLimit, Site: g.site, Goroutine: g.id, HeldNative: posOf(g), Message: fmt.Sprintf(
		"%s blocked inside code gopct does not instrument after %s while other goroutines waited for their turn, "+
			"and the clock ran %v (over -max-delay %v): no real run delays them that long, so the execution is given up; "+
			"when that code is another module's, instrument it too: -deps auto,MODULE",
		gname(g.id), posOf(g), d, e.maxDelay)}
}
