package pct

// The tally: gated plain accesses that only count (issue 11).
//
// Under the fast bound (stay.go) a memory access that needs no decision
// still entered the runtime: a call from the user's loop (spilling its
// registers), the token holder's test (an assembly getg), then the step,
// the fingerprint, the trail, the strategy's per-site count and the
// decision number, ~7 ns against ~1 ns for the access itself. With one hot
// tracked array that made PCTVB at v = 1 cost 4x a native merge sort.
//
// Once the holder is at step s under the fast bound, every access up to
// fastTo-1 is known in advance to need nothing but counting, whichever
// sites make them. So the runtime grants the holder a batch of that many
// accesses: tally = fastTo-s-1. Load and Store, inlined into the user's
// code, decrement tally and enter the runtime only when it goes negative;
// whatever the holder does next in the runtime (the access that exhausts
// the batch, a synchronisation operation the batch does not take
// (tally_sync.go), its exit, a failure) first closes the batch
// (closeTally), which adds the accesses it made to the step, the decision
// number and the strategy's count, as memFast would have one by one. The
// steps, the decisions, the change points and the switches of every
// schedule are therefore the same as without the tally.
//
// What a batch cannot know is which sites its accesses were at, so:
//   - past the trail (step > maxTrailSteps, whose sites the replay checks
//     one by one), memory steps do not enter the path fingerprint; the steps
//     that stepAt folds in carry their step number, so that a run that makes
//     a different number of memory accesses between two of them still
//     fingerprints differently (foldStep; time decisions and random draws
//     fold as before). The rule depends on the step and the site's kind
//     alone, so recording and replay, which never tallies, agree. Batches
//     open only past the trail. A replay that makes as many memory accesses
//     at other sites is told apart only by its steps, switches and end.
//   - a strategy that counts per site (PCTVB) gets the batch's accesses at
//     one representative site, which is exact when every active memory
//     site (plain or map) counts for the same tracked variables
//     (tallyCounter; v = 1 always); otherwise no batch opens.
//   - the holder's last site (g.site, g.lastMem) stays at the access that
//     opened the batch, and G.batched says so: a report names the position
//     "or a later access" until the holder's next scheduling point (a panic
//     names its own frame), and a preemption at an operation on no object (a
//     go statement, a sleep) is charged with that access's variable.
//
// Goroutines that do not hold the token run the same inlined code. The
// holder's batch must not count their accesses, so it is closed before the
// holder can stop running user code: at every runtime entry, and before
// every call into code gopct does not instrument (Leave, placed by the
// instrumenter: that code may block the holder while it runs the test's
// code on goroutines gopct does not manage, an httptest handler, another
// module's pool). Between batches such a goroutine's first gated access
// enters the runtime and leaves its decrement, which the holder's next
// reset drops. Within a batch it could be counted as the holder only by
// running while the holder runs user code, which on the worker's one P
// (GOMAXPROCS=1) takes Go's asynchronous preemption of the holder inside a
// batch of at most 1023 accesses: a replay of that execution may then
// diverge (exit 3), no report changes. Under Go's race detector (-gorace)
// the tally is off (tallyOn), as a variable written by every goroutine
// would be reported as a race.

// tally is the number of gated plain accesses the token holder may still
// make without entering the runtime; tallyGranted is the size of the open
// batch (0: none). Only the holder opens and closes batches.
var tally, tallyGranted int

// tallied counts the accesses made in batches by this process (reported
// in the done record, Record.Tallied).
var tallied int64

// tallyCounter is a siteCounter that can say whether the accesses of
// several sites count alike: tallySite returns a site whose count
// stands for an access at any of sites, or -1.
type tallyCounter interface {
	siteCounter
	tallySite(sites []int) int
}

// closeTally ends the holder's batch, if any: the accesses it made become
// steps and decisions, and counts of the strategy. Called by the holder
// before anything that reads or moves the step (and by the decider once
// the holder has stopped in code gopct does not see). Drops the decrement
// of an access that found the batch exhausted (tally = -1). Not inlined:
// its callers test tallyGranted first, and its body in each of them made
// unfast and the points that call it larger.
//
//go:noinline
func (e *execution) closeTally() {
	used := tallyGranted - max(tally, 0)
	tally, tallyGranted = 0, 0
	syncUsed := 0
	if tallySync {
		syncUsed = e.closeSyncTally()
	}
	if used <= 0 {
		return
	}
	e.step += used
	e.seq += used
	tallied += int64(used)
	e.tallyG.batched = true
	if lc := e.live; lc != nil {
		lc.left -= used // points of the window's turn (windowStays counts them)
		return
	}
	if e.hits != nil {
		e.hits[e.tallyRep] += used - syncUsed // the strategy counts memory accesses (tally_sync.go)
	}
}

// closeAtEntry closes the holder's batch as it enters the runtime (self,
// holding). Only user code ran since the batch's last step, so in test
// builds that step is checked as an exhausted batch's is (verifyFast):
// batches take synchronisation and map steps too (tally_sync.go).
func (e *execution) closeAtEntry() {
	inWindow := e.live != nil
	e.closeTally()
	if verifyFast {
		e.checkTally(inWindow)
	}
}

// checkTally panics if a batch that has just run out (its holder's access
// found tally negative) ran past a step whose conditions no longer held:
// a place that changes one of them without closing the batch (set in the
// package's tests, verifyFast).
func (e *execution) checkTally(inWindow bool) {
	if inWindow && !e.windowTallies() || !inWindow && !e.staysAt(e.step) {
		panic("gopct: a tally batch ran past a step that needed the runtime")
	}
}

// closeIfHolder closes the batch when the caller holds the token (a
// goroutine's exit, a failure: paths that may run on other goroutines).
func (e *execution) closeIfHolder() {
	if tallyGranted != 0 && getg() == e.curGP.Load() {
		e.closeTally()
	}
}

// tallyStreak is the number of memory steps in a row under the fast bound
// (no other scheduling point between them) after which batches open. A
// batch costs an opening and a closing (two calls, ~10 ns); code that
// makes a few accesses between synchronisation operations (a sharded set:
// Lock, a load of the shard's map, Unlock) opened one at every load and
// closed it at the next Unlock, which cost more than it saved (HashSet's
// PCTVB set of the shards: 122 -> 221 ms per execution).
const tallyStreak = 8

// maybeOpenTally counts a memory step made under the fast bound at step,
// and opens a batch once the streak is long enough (stepAt resets it).
func (e *execution) maybeOpenTally(step int) {
	if e.streak++; e.streak >= tallyStreak {
		e.openTally(step)
	}
}

// openTally grants the holder, which has just made the memory step at
// step under the fast bound, a batch of the accesses that remain before
// the bound.
func (e *execution) openTally(step int) {
	if !tallyOn || step < maxTrailSteps || !e.tallyReady() {
		return
	}
	if n := e.fastTo - step - 1; n > 0 {
		tally, tallyGranted, e.tallyG = n, n, e.holder
		e.grantSync()
	}
}

// openWindowTally grants the holder, which windowStays has just let go on
// in its turn of a livelock window, a batch of the turn's points left,
// once the window has seen progress (nothing is watched then) and up to
// the window's end and the next progress tick. The strategy counts
// nothing in a window.
func (e *execution) openWindowTally() {
	if !e.windowTallies() {
		return
	}
	n := min(e.live.left, e.nextCheck-e.step-1, (e.step|1023)-e.step)
	if n > 0 {
		tally, tallyGranted, e.tallyG = n, n, e.holder
		e.grantSync()
	}
}

// windowTallies says whether the points of the holder's turn that follow
// need nothing but counting: the window progressed (nobody watches the
// events), the turn goes on (windowStays' conditions), and none of the
// rare checks of a scheduling point is due.
func (e *execution) windowTallies() bool {
	lc := e.live
	return lc != nil && lc.progress && e.windowStay && lc.left >= 0 && !e.dirty && !e.yielding &&
		len(e.timers.at)+len(e.timers.tick) == 0 && !e.observing && !e.mayWake && e.eager == 0 &&
		fingerprinting && e.rec.follow == nil && e.step < e.nextCheck && !e.aborted.Load() &&
		e.step >= maxTrailSteps && !profiling && trackedObjs == nil // as openTally and the fast bound
}

// Tally states of an execution: not looked at yet, usable, not usable.
const (
	tallyUnknown = iota
	tallyUsable
	tallyUnusable
)

// tallyReady says whether batches may open in this execution: the
// strategy counts nothing per site, or counts the active memory sites
// alike (tallyRep is then the site it counts a batch at). Decided
// once per execution, at the first batch: the active sites change only in
// livelock windows, where the fast bound never holds, and are restored
// after them.
func (e *execution) tallyReady() bool {
	if e.tallyState == tallyUnknown {
		e.tallyState = tallyUnusable
		if e.hits == nil {
			e.tallyState = tallyUsable
		} else if c, ok := e.strategy.(tallyCounter); ok {
			if rep := c.tallySite(activeMemorySites()); rep >= 0 && rep < len(e.hits) {
				e.tallyState, e.tallyRep = tallyUsable, rep
			}
		}
	}
	return e.tallyState == tallyUsable
}

// posOf names where goroutine g is: its last scheduling point, or a later
// access when a batch counted some after it (G.batched).
func posOf(g *G) string {
	if g.batched {
		return sitePos(g.site) + " or a later access"
	}
	return sitePos(g.site)
}

// activeMemorySites lists the active sites of Load, Store and the map
// operations, whose steps batches count.
func activeMemorySites() []int {
	var out []int
	for i, on := range sitesActive {
		if on && isMemory(siteKind(i)) {
			out = append(out, i)
		}
	}
	return out
}

// foldStep folds the step of goroutine gid at site into the path
// fingerprint: every step within the trail; past it, every step but a
// memory access or a synchronisation step a batch may take
// (syncBatchable), with its step number (see above).
func (e *execution) foldStep(gid, site int, kind SiteKind) {
	w := uint64(gid)<<40 ^ uint64(uint32(site))<<8 ^ uint64(kind)
	if e.step > maxTrailSteps {
		if unhashedKinds>>kind&1 != 0 {
			return
		}
		w ^= uint64(e.step) << 1 // the multiply below mixes it in
	}
	e.fp = (e.fp ^ w) * fpPrime
}

// Leave returns v, having closed the caller's batch if it holds the
// token. The instrumenter wraps the last argument of a call into code it
// does not instrument with it (or, when that cannot be done, the function,
// LeaveFunc): such code may block the holder while goroutines gopct does
// not manage run the test's code (an httptest handler, a pool of another
// module running the test's closures), and their accesses must not be
// taken for the holder's.
func Leave[T any](v T) T {
	if tallyOn && tallyGranted != 0 {
		leave()
	}
	return v
}

// LeaveFunc is Leave for the function of a call without an argument to
// wrap.
func LeaveFunc[F any](f F) F {
	if tallyOn && tallyGranted != 0 {
		leave()
	}
	return f
}

// Leaving is `defer f()` for an f of code gopct does not instrument: the
// batch is closed when f runs.
func Leaving(f func()) {
	if tallyOn && tallyGranted != 0 {
		leave()
	}
	f()
}

// Leaving1 is Leaving for an f with a result, which defer drops.
func Leaving1[R any](f func() R) {
	if tallyOn && tallyGranted != 0 {
		leave()
	}
	f()
}

func leave() {
	if e := current.Load(); e != nil && getg() == e.curGP.Load() {
		e.closeTally()
	}
}
