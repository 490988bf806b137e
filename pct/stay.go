package pct

import "fmt"

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
	return e.memFast(site) || e.memStaysSlow(g, site)
}

// The fast bound. memStays tested a dozen conditions at every tracked
// access (~7 of the ~12 ns of an access that needs no decision, issue 11).
// They change only at a few places, and a step bound folds the three that
// move with the step: once memStaysSlow has seen every condition hold at
// step s, they hold at every later step below fastTo = min(stayStep,
// nextCheck, the next multiple of 1024 after s) until one of the flags
// changes; every place that can turn one of them false (a decision, a
// goroutine made or changing state, a possible wake-up, an eager callback,
// a yield, a timer, a livelock window, an observer) sets fastTo to 0
// (unfast). The conditions that are fixed for the process (profiling, the
// object gate, fingerprinting) and the replay's follower are folded in
// too. The abort flag, set by other goroutines, is still read at every
// access. Test builds check the bound against the conditions at every
// access that takes it (verifyFast).

// memWords holds, per site, the word a memory step folds into the path
// fingerprint (site<<8 ^ kind, as stepAt computes it), or 0 for a site
// whose kind is not an access to a shared object (onObject), which
// memFast leaves to memStaysSlow. Built with the site table.
var memWords []uint64

// buildMemWords computes memWords for a site table.
func buildMemWords(sites []SiteInfo) []uint64 {
	w := make([]uint64, len(sites))
	for i, s := range sites {
		if onObject(s.Kind) {
			w[i] = uint64(uint32(i))<<8 ^ uint64(s.Kind)
		}
	}
	return w
}

// verifyFast makes every access that takes the fast bound check that the
// conditions it stands for hold (set by the package's tests).
var verifyFast bool

// unfast ends the fast bound: the next access tests every condition. (A
// tally batch opened under the bound is closed by the runtime entry that
// led here, or by setState.)
func (e *execution) unfast() { e.fastTo = 0 }

// memFast is memStays under the fast bound, for the token holder's access
// at a site of the table: what memStaysSlow would do, from one compare
// of the step, or false having done nothing. Its callers test the token
// holder themselves (self's test, without self's call). access has a copy
// of its body.
func (e *execution) memFast(site int) bool {
	step := e.step + 1
	if step >= e.fastTo || uint(site) >= uint(len(memWords)) || e.aborted.Load() {
		return false
	}
	w := memWords[site]
	if w == 0 {
		return false
	}
	if verifyFast {
		e.checkFast(site)
	}
	g := e.holder
	g.site, g.lastMem, g.batched = site, site, false
	e.step = step
	mem := isMemory(SiteKind(w)) // w's low byte is the site's kind
	if step <= maxTrailSteps {
		e.fp = (e.fp ^ uint64(g.id)<<40 ^ w) * fpPrime
		e.rec.step(g.id, site)
	} else if !mem {
		e.foldStep(g.id, site, SiteKind(w)) // past the trail, as stepAt folds it (tally.go)
	}
	if uint(site) < uint(len(e.hits)) {
		e.hits[site]++
	}
	e.seq++
	return true
}

// memStaysSlow is memStays testing every condition; when they all hold
// it sets the fast bound for the steps that follow.
func (e *execution) memStaysSlow(g *G, site int) bool {
	step := e.step + 1
	if !e.staysAt(step) {
		return false
	}
	if !profiling && trackedObjs == nil {
		e.fastTo = min(e.stayStep, e.nextCheck, (step|1023)+1)
	}
	kind := siteKind(site)
	g.site, g.batched = site, false
	if onObject(kind) {
		g.lastMem = site
	}
	e.step = step
	e.foldStep(g.id, site, kind)
	e.rec.step(g.id, site)
	if e.hits != nil && uint(site) < uint(len(e.hits)) {
		e.hits[site]++
	}
	e.seq++
	if tallyOn && (kind == KindRead || kind == KindWrite) && e.tallyState != tallyUnusable {
		e.maybeOpenTally(step)
	}
	return true
}

// staysAt says whether a memory access at step needs no decision and none
// of the rare checks.
func (e *execution) staysAt(step int) bool {
	return e.stay && step < e.stayStep && step < e.nextCheck && step&1023 != 0 && !e.observing &&
		!e.mayWake && e.eager == 0 && e.quiet() && fingerprinting && e.rec.follow == nil && !e.aborted.Load()
}

// checkFast panics if the fast bound stands for conditions that do not
// hold at the access at site (a place that changes one of them without
// unfast).
func (e *execution) checkFast(site int) {
	if !e.staysAt(e.step+1) || profiling || trackedObjs != nil || uint(site) >= uint(len(siteTable)) ||
		memWords[site] != uint64(uint32(site))<<8^uint64(siteTable[site].Kind) {
		panic(fmt.Sprintf("gopct: the fast bound (step %d < %d) stands for conditions that do not hold", e.step+1, e.fastTo))
	}
}
