package pct

import (
	"time"
)

// A token holder blocked inside code gopct does not instrument, handed off.
//
// The test's goroutines meet inside the standard library: an io.Pipe or a
// net.Pipe (a Read waits in io's code for another goroutine's Write), a
// bufio.Scanner over one, a mock clock of another module that waits on its
// own channels. gopct sees the calls, not the waits inside them. When the
// token holder blocks there, every other goroutine waits for its turn, and
// nothing can run: before, the bubble reported "every goroutine blocked"
// and gopct gave up with exit 2 ("blocked inside code gopct does not
// instrument"), though go test passes.
//
// The bubble tells when that happens: its clock moves only once every
// goroutine in it is durably blocked. A guard timer, one nanosecond ahead
// of the clock, fires at that moment. If a goroutine then still holds the
// token, it is blocked inside code gopct does not see (gopct's own waits
// give the token up first), and the guard's goroutine takes the decision
// the holder cannot: the holder counts as blocked in a real operation
// (inOp, as blockIn's), and the strategy picks who runs next, a decision
// recorded like any other, at the same point of every replay, since what
// blocks and when is the schedule's doing. When the goroutine that was
// handed off wakes (another one wrote to the pipe), it runs natively until
// its next call into gopct, where it comes back as from any real operation
// (comeBack: it waits in pending until the holder's next decision merges
// it). Until then each scheduling point settles first (it counts in
// eager), so that whether it is back is the same in every run.
//
// The guard fires only when the clock moves, which is why it stays one
// nanosecond ahead: a jump that no program can tell from the time a real
// block takes. While nobody holds the token (gopct lets the clock pass to
// a timer, or every goroutine waits in gopct's models: a deadlock) the
// guard is stopped, and it is set again when a goroutine next decides from
// idle; a deadlock is still reported by the bubble, now naming the
// goroutines blocked inside code gopct does not instrument. Testscript
// native_handoff.
//
// The guard's goroutine may wake at the same instant as the holder, when
// the holder's own timer inside that code is due a nanosecond later too (a
// backoff with a 1 ns interval). Two synctest.Waits at once crash the
// binary, so gopct's Waits are taken one at a time (bubbleWait), and a
// guard that finds a goroutine waiting for its turn to Wait leaves the
// token alone: that goroutine is the holder, back in gopct's code.
//
// The cost: the guard is stopped whenever nobody holds the token (goIdle)
// and set again when a goroutine decides from idle, two timer operations
// per instant at which the clock passes. A test that waits on a 1 ms
// ticker 500 times and sleeps 200 times beside it took 5.8 ms of CPU per
// execution against 4.1 ms before (best of 3, 40 executions each, on the
// loaded 2-core machine: `gopct hunt -race=false -seed 1 -workers 1
// -iters 40 -json` of each binary, cpuSeconds over executions).

// guardTick is how far ahead of the clock the guard fires.
const guardTick = time.Nanosecond

// armGuard sets the guard timer unless it is already set. It runs in the
// bubble (a bubble's timer) on the goroutine that ends an idle period or
// starts the execution.
func (e *execution) armGuard() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.guardArmed || e.bodyDone && e.curGP.Load() == 0 {
		return
	}
	e.guardArmed = true
	if e.guard == nil {
		e.guard = time.AfterFunc(guardTick, e.guardFire)
		return
	}
	e.guard.Reset(guardTick)
}

// rearmGuard sets the guard again after it fired without taking the token.
func (e *execution) rearmGuard() {
	e.mu.Lock()
	e.guardArmed = false
	e.mu.Unlock()
	e.armGuard()
}

// stopGuard disarms the guard when the execution's goroutines are done.
func (e *execution) stopGuard() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.disarmGuard()
}

// disarmGuard stops the guard, under e.mu. goIdle calls it: while nobody
// holds the token, the guard has nothing to take, and a guard that fires
// at every instant the clock passes to cost a goroutine and an idle
// round each (a ticker's 500 ticks: twice the CPU per execution).
func (e *execution) disarmGuard() {
	if e.guardArmed {
		e.guard.Stop()
		e.guardArmed = false
	}
}

// guardFire runs on a goroutine of its own when the clock moved past the
// guard: every goroutine of the bubble is durably blocked.
func (e *execution) guardFire() {
	// Every other goroutine of the bubble is durably blocked, so Wait
	// returns at once; it orders their work before the guard's for Go's
	// race detector too (-gorace reported the holder's read of e.holder
	// against takeBlockedHolder's write: pct's own fields, a false race).
	e.bubbleWait()
	if e.semWaiters.Load() > 0 {
		// The holder woke at the guard's instant (its own timer) and now
		// waits in gopct's bubbleWait, which the guard's Wait took for a
		// block inside code gopct does not see: taking its token left it
		// running without one (reactivex/rxgo's Test_Observable_BackOffRetry,
		// a false deadlock once the two Waits no longer crashed). The guard
		// stands down until the clock moves again.
		e.rearmGuard()
		return
	}
	h, gp := e.takeBlockedHolder()
	if h == nil {
		return
	}
	e.goNative(h, gp)
	e.armGuard()
	e.handedOff = h // the trace names it (recorder.switchTo)
	e.decideIdle(nil)
	e.handedOff = nil
}

// takeBlockedHolder returns the token holder and its goroutine when one
// holds the token while the bubble is idle, and takes the token from it;
// nil when nobody does (gopct passes time, or every goroutine is blocked
// in gopct's waits: a deadlock the bubble reports).
func (e *execution) takeBlockedHolder() (*G, uintptr) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.guardArmed = false
	h, gp := e.holder, e.curGP.Load()
	if e.idle || e.deciding || h == nil || gp == 0 || h.state != gEnabled || e.aborted.Load() {
		return nil, 0
	}
	e.deciding, e.idle = true, true
	e.holder = nil
	e.curGP.Store(0)
	return h, gp
}

// goNative counts h, blocked inside code gopct does not see on goroutine
// gp, as a goroutine in a real operation that may come back while another
// runs.
func (e *execution) goNative(h *G, gp uintptr) {
	e.closeTally()
	e.setState(h, gInOp)
	h.waitFor = "blocked inside code gopct does not instrument after " + posOf(h)
	h.inOp, h.native = true, true
	e.inOp++
	e.eager++
	e.mu.Lock()
	h.gp = gp
	e.natives = append(e.natives, h)
	e.nativeN.Add(1)
	e.mu.Unlock()
	e.noteNative(EvBlock, h)
}

// nativeWait marks the EvBlock and EvWake of a goroutine handed off
// (Event.Other): the race detector orders across them what the code gopct
// does not see may have ordered (raceDetector.native).
const nativeWait = 1

// noteNative emits g's EvBlock or EvWake of a wait inside code gopct does
// not see.
func (e *execution) noteNative(k EventKind, g *G) {
	if e.observing {
		e.emit(Event{Kind: k, G: g.id, Other: nativeWait, Site: g.site, Op: siteKind(g.site)})
	}
}

// returnFromNative is called by a goroutine that does not hold the token
// when goroutines are out in code gopct does not see: if it is one of
// them, it comes back (and holds the token when it returns); otherwise it
// returns nil.
func (e *execution) returnFromNative() *G {
	gp := getg()
	e.mu.Lock()
	var g *G
	for _, n := range e.natives {
		if n.gp == gp {
			g = n
			break
		}
	}
	e.mu.Unlock()
	if g == nil {
		return nil
	}
	e.comeBack(g)
	e.noteNative(EvWake, g)
	return g
}

// reclaim brings the caller back when it returns to gopct's runtime from
// code gopct does not instrument without a scheduling point on the way (a
// goroutine's last call, the test function's): it waits for its turn as at
// any other return from there.
func (e *execution) reclaim() {
	if e.nativeN.Load() > 0 && getg() != e.curGP.Load() {
		e.returnFromNative()
	}
}

// backFromNative ends g's time out in code gopct does not see; merge
// calls it for a goroutine that came back.
func (e *execution) backFromNative(g *G) {
	g.native = false
	e.eager--
	e.mu.Lock()
	defer e.mu.Unlock()
	e.nativeN.Add(-1)
	for i, n := range e.natives {
		if n == g {
			e.natives = append(e.natives[:i], e.natives[i+1:]...)
			break
		}
	}
}
