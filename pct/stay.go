package pct

// The fast path of a scheduling point (issue 11: a point without a switch
// cost ~100 ns, most of it building the Decision and asking the strategy,
// against ~1 ns for a memory access itself).
//
// A strategy whose choice is a function of the enabled set, the timers and
// its own state, and whose state changes only at known points (PCT's change
// points, PCTVB's j-th access of a variable), can say cheaply that the token
// holder continues when its last decision said so and nothing it reads has
// changed since (the random walk: when its choice is forced or the access
// commutes, so that it draws no number): the enabled set (dirty), timers (none may exist), a yield,
// a livelock window. The engine then skips the decision but numbers it
// (Decision.Seq), so that step, sequence number and path fingerprint, and
// with them recordings and replays, are those of the slow path. Replay and
// exhaustive strategies do not implement stayer and see every decision.

// stayer is a strategy that can answer at a scheduling point without a
// Decision. stays is called only when the previous decision of the
// execution let the token holder cur continue, with the same runnable
// goroutines (sorted by id, cur among them), no timer, no yield and no
// livelock window; it does the bookkeeping Next would do at access a and
// returns true when Next would choose cur again, or returns false, having
// changed nothing, to have Next called.
type stayer interface {
	stays(step int, a Access, cur *G, runnable []*G) bool
}

// stays asks the strategy whether the token holder g continues at a
// without a decision (see stayer); the caller has checked e.stay and
// e.quiet(). e.stayer is the strategy as a stayer, found once per
// execution (an interface conversion at every point cost ~7% of a merge
// sort's CPU).
func (e *execution) stays(g *G, a Access) bool {
	if e.stayer == nil || !e.stayer.stays(e.step, a, g, e.enabled) {
		return false
	}
	if e.horizon != nil {
		e.stayStep = e.horizon.horizon() // the answer holds until then
	}
	return true
}

// quiet says that nothing a stayer reads has changed since the last
// decision: the runnable goroutines, timers (none may exist), a yield, a
// livelock window.
func (e *execution) quiet() bool {
	return !e.dirty && e.live == nil && !e.yielding && len(e.timers.at)+len(e.timers.tick) == 0
}

// horizonStayer is a stayer whose answer depends on the step only: it
// keeps the holder at every step before horizon() (PCT: its next change
// point), so the engine need not ask it there. horizon is read right
// after a decision that let the holder continue.
type horizonStayer interface {
	stayer
	horizon() int
}

// siteCounter is a strategy that counts accesses per site (PCTVB: the
// j-th access of a variable is a change point). The engine increments
// siteHits()[site] at every scheduling point the strategy would see (not
// in livelock windows, where it is not asked), before asking it, so that
// the points before its horizon need no call.
type siteCounter interface {
	siteHits() []int
}

// memStays is pointAt at a memory access in the commonest case, without
// building the Access: the holder continues without a decision (e.stay,
// before the strategy's horizon, nothing changed) and none of the rare
// checks is due, nobody observes events and no replay follows the steps.
// It does what pointAt would do then, in the same order (site, step,
// fingerprint, trail, the strategy's per-site count, the decision's
// number), or returns false having done nothing.
func (e *execution) memStays(g *G, site int) bool {
	step := e.step + 1
	if !e.stay || step >= e.stayStep || step >= e.nextCheck || step&1023 == 0 || e.observing ||
		e.mayWake || e.eager > 0 || !e.quiet() || !fingerprinting || e.rec.follow != nil || e.aborted.Load() {
		return false
	}
	kind := siteKind(site)
	g.site = site
	if onObject(kind) {
		g.lastMem = site
	}
	e.step = step
	e.fp = (e.fp ^ uint64(g.id)<<40 ^ uint64(uint32(site))<<8 ^ uint64(kind)) * fpPrime
	e.rec.step(g.id, site)
	if e.hits != nil && uint(site) < uint(len(e.hits)) {
		e.hits[site]++
	}
	e.seq++
	return true
}
