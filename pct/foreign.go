package pct

import (
	"sync/atomic"
	"unsafe"
)

// Selects on channels made outside the test (sweep fresh29, kelindar/event:
// a package-level dispatcher's `done` channel, made at init, in the select of
// each subscriber group's goroutine beside its ticker). A real select on such
// a channel is never durably blocked in the execution's bubble, so the
// bubble's clock stood still, the ticker never fired, and the run stalled
// into exit 2 although go test passes.
//
// When no goroutine started outside the executions by instrumented code is
// alive (outsideGs), only the execution's own goroutines can use the
// channel (gopct sees each of their operations). The blocking select then
// waits with those cases masked (nil channels: durable) and one more case,
// the goroutine's kick channel; a plain send or receive on such a channel
// waits on the kick channel alone. A managed goroutine's successful
// operation on a channel made outside the test kicks every masked waiter,
// which tries again under the token. With such a goroutine alive, it may
// serve the channel in real time: the operation blocks for real, as before
// (a stall if nothing else moves: exit 2). Two goroutines of the test
// meeting on such an unbuffered channel both wait masked, which the bubble
// reports as every goroutine blocked: exit 2 for a channel made outside the
// test, at once, where a real wait stalled.

// outsideGs counts the goroutines that instrumented go statements started
// outside the executions (init, TestMain) and that have not returned.
var outsideGs atomic.Int64

// runOutside runs the body of such a goroutine, counted in outsideGs.
func runOutside(f func()) {
	defer outsideGs.Add(-1)
	f()
}

// isOutsideChan says whether c was made by instrumented code outside any
// execution.
func isOutsideChan(c unsafe.Pointer) bool {
	if c == nil || outsideN.Load() == 0 {
		return false
	}
	outsideMu.Lock()
	defer outsideMu.Unlock()
	return outsideChans[c]
}

// maskable says whether a blocking operation may leave channel c out: it
// was made outside the test, and no goroutine started outside the
// executions can use it.
func maskable(c unsafe.Pointer) bool {
	return isOutsideChan(c) && outsideGs.Load() == 0
}

// maskChan is Mask for the token holder g: it notes a channel made outside
// the test in the select g is about to run and says whether the blocking
// select may leave it out.
func (e *execution) maskChan(g *G, c unsafe.Pointer) bool {
	if !isOutsideChan(c) {
		return false
	}
	e.foreignChan = true
	g.selForeign = true
	if outsideGs.Load() > 0 {
		return false
	}
	g.selMasked = true
	return true
}

// kicker is Kicker for the token holder g: its kick channel when the
// select it is about to run left a case out, nil otherwise.
func (g *G) kicker() chan struct{} {
	if !g.selMasked {
		return nil
	}
	if g.kick == nil {
		g.kick = make(chan struct{}, 1) // in the bubble: a durable wait
	}
	return g.kick
}

// kicked is what a select's blocking function returns when its kick
// channel fired (see Kicker).
const kicked = -2

// kickMasked wakes every goroutine waiting in a select with masked cases:
// a channel made outside the test changed.
func (e *execution) kickMasked() {
	for _, w := range e.masked {
		select {
		case w.kick <- struct{}{}:
		default: // kicked already
		}
	}
	if len(e.masked) > 0 {
		e.noteWake()
	}
}

// kickIfOutside kicks the masked waiters after a successful operation of
// the token holder on channel c.
func (e *execution) kickIfOutside(c unsafe.Pointer) {
	if len(e.masked) > 0 && isOutsideChan(c) {
		e.kickMasked()
	}
}

// waitMasked registers g, about to block in a select with masked cases,
// as a waiter to kick, with no kick left over from an earlier wait.
func (e *execution) waitMasked(g *G) {
	if g.kick == nil {
		g.kick = make(chan struct{}, 1) // in the bubble: a durable wait
	}
	select {
	case <-g.kick:
	default:
	}
	e.masked = append(e.masked, g)
}

// doneMasked removes g from the waiters to kick.
func (e *execution) doneMasked(g *G) {
	for i, w := range e.masked {
		if w == g {
			e.masked = append(e.masked[:i], e.masked[i+1:]...)
			return
		}
	}
}
