package pct

import (
	"fmt"
	"strings"
	"time"
	"unsafe"
)

// Long executions, livelocks and hangs.
//
// A test that does a lot of work is not a bug, and an execution that stops
// at a step limit tested nothing. So the step limit is calibrated (see
// stepLimits) and, when an execution reaches a checkpoint, the engine does
// not give up at once: it runs a livelock window of liveWindow steps under
// a fair schedule of its own (round robin over the runnable goroutines,
// turns of liveQuantum points on average, letting time pass about once per
// round when a timer may fire; lengths and passes vary, see draw) and watches
// for progress: a write that changes memory, a channel operation, a
// goroutine started or ended, a WaitGroup, Once or Cond transition, an
// atomic that writes, time passing. Reads, atomic loads, mutex traffic and
// stores of the value already there are not progress, unless they keep
// reaching memory not touched before in the window (liveCheck.touched). Windows without
// progress at liveConfirm checkpoints in a row, with no goroutine started or
// ended between them, are a livelock (liveSuspect says why one is not
// enough), reported with a replay (a replay opens the window
// at the same step and takes the same turns: they are not recorded, see
// recorder.switchTo). A window with progress lets the execution go
// on to the next checkpoint; past the calibrated limit it is abandoned as
// too long, which is counted, never reported as a bug.
//
// A window without progress while a timer is pending that the delay bound
// (-max-delay) kept from firing is not yet a livelock: the goroutines may be
// waiting for time, as ants' workers spin on runtime.Gosched while the test
// sleeps a second. In reality the clock runs while they spin, so a second
// window follows in which time passes as often as the fair schedule offers
// it, whatever the bound (a "clock-free" window; no scheduling delay is
// claimed for it). Only a window that itself made no progress opens one: a
// long computation that progresses (ristretto's clear of 200,000 counters
// next to a 500 ms ticker) never sees its clock run ahead, which would turn
// it into a false hang. A spin livelock stays a livelock (no progress in the
// clock-free window either), or a hang once the clock passes the timeout.
//
// A hang is an execution whose fake clock passes the test's timeout (go
// test's -timeout, 10 minutes by default): the same verdict go test would
// give, in milliseconds of real time.

const liveWindow = 1 << 16

// liveQuantum is the number of scheduling points a goroutine runs per turn
// of a window's round robin (a yield, a block or its exit ends the turn
// earlier). Real schedulers give a goroutine milliseconds, thousands of
// points, per turn; a turn of one point made every step of a window a
// goroutine handoff (~200 ns): 130,000 handoffs, a third of the CPU of a
// merge sort of 3M points under PCT (issue 11). With 32 points per turn a
// window still gives every runnable goroutine 2,048 turns among the
// others', and a spin that makes no progress makes none whatever its turns.
const liveQuantum = 32

// progressedQuantum is the points per turn, on average, once the window
// has progressed and no timer is pending: the verdict is settled, and the
// round robin is left only to let goroutines that PCT starved run, which
// turns of real schedulers' length do as well. Turns of 32 points were
// ~2,000 handoffs (~200 ns each) per window of 65,536 steps, a third of a
// merge sort's overhead under PCTVB v=1 (issue 11: 6,100 decisions in an
// execution of 2.2M steps with two windows, against 15 without one). With
// a timer pending the turns stay short: time passes at one turn in n+1.
const progressedQuantum = 1024

// turnQuantum is the mean length of the window's next turn.
func (e *execution) turnQuantum() int {
	if e.live.progress && len(e.timers.at)+len(e.timers.tick) == 0 {
		return progressedQuantum
	}
	return liveQuantum
}

// stepLimits decides when an execution is checked and when it is given up.
type stepLimits struct {
	fixed       int // -max-steps, 0: auto
	finishedMax int // most steps of a finished execution of this worker
}

// Auto limits: the first checkpoint comes at firstCheck steps and doubles;
// an execution is given up at calibrate times the longest finished one, or
// at hardCap before any finished.
const (
	firstCheck = 1 << 20
	calibrate  = 8
	hardCap    = 1 << 26
)

// limit is the step at which the current execution is given up.
func (l *stepLimits) limit() int {
	switch {
	case l.fixed > 0:
		return l.fixed
	case l.finishedMax > 0:
		return max(firstCheck, calibrate*l.finishedMax)
	}
	return hardCap
}

// nextCheck is the first checkpoint after step.
func (l *stepLimits) nextCheck(step int) int {
	c := firstCheck
	for c <= step {
		c *= 2
	}
	return min(c, l.limit())
}

func (l *stepLimits) finished(steps int) { l.finishedMax = max(l.finishedMax, steps) }

// liveCheck is the state of a livelock window.
type liveCheck struct {
	start    int  // step at which the window began
	progress bool // something progressed in the window
	turns    int  // turns begun in the window, for the round robin
	left     int  // points the running goroutine's turn has left
	traced   int  // switches of the window in the trace (recorder.windowSwitch)
	// clockFree: time may pass whatever -max-delay, because the window
	// before this one made no progress with a timer pending.
	clockFree bool
	since     time.Time // the clock when a clock-free window began
	passed    bool      // time has passed in this clock-free window
	// touched: the addresses read, or stored with their own value, in the
	// window. A loop that keeps reaching memory it has not touched (more
	// than freshProgress addresses) is a bounded scan or clear of a large
	// array whose index is a local gopct does not see (ristretto's
	// cmRow.clear zeroes 200,000 counters that are already zero), not a
	// spin: a livelock repeats its few accesses.
	touched map[uintptr]struct{}
}

// freshProgress: distinct addresses a window must touch, without any other
// progress, to count as progressing; a livelock whose loop touches more
// than this (a quarter of the window) is not detected.
const freshProgress = liveWindow / 4

// atCheckpoint runs at a scheduling point when the step count reaches the
// next checkpoint: it opens a window, closes one, or gives up.
func (e *execution) atCheckpoint(site int) {
	e.unfast() // a window opens or closes, the next checkpoint moves
	if lc := e.live; lc != nil {
		if lc.progress {
			liveSuspects.clear(e)
			e.closeWindow(site)
			return
		}
		if !lc.clockFree && e.timers.pending(now) {
			e.windowSteps += e.step - lc.start
			e.live = &liveCheck{start: e.step, clockFree: true, since: now()}
			e.nextCheck = e.step + liveWindow
			return
		}
		if !liveSuspects.confirmed(e) {
			e.closeWindow(site) // not yet: look again at the next checkpoint
			return
		}
		e.failLivelock(site)
		return
	}
	e.live = &liveCheck{start: e.step}
	e.observing = true
	e.nextCheck = e.step + liveWindow
	// Writes at sites that variable bounding left off are progress too:
	// the window watches every site. Replays widen at the same step.
	e.narrowSites = widenSites()
}

// closeWindow ends a livelock window that did not conclude: the execution
// goes on unobserved to the next checkpoint, or is given up at the step
// limit.
func (e *execution) closeWindow(site int) {
	e.windowSteps += e.step - e.live.start
	e.live = nil
	e.rec.windowEnd = e.step
	e.unobserveLive()
	if e.narrowSites != nil { // already narrowed when the window progressed (progressMade)
		e.narrowSites()
		e.narrowSites = nil
	}
	e.nextCheck = e.limits.nextCheck(e.step)
	if e.step >= e.limits.limit() {
		held := e.heldTimer()
		e.failStepLimit(site)
		if f := e.failure; f != nil && f.Kind == FailStepLimit {
			f.HeldTimer = held
		}
	}
}

// A single window without progress is not proof of a livelock. A loop with
// a fixed number of iterations whose counter is a local (gopct does not
// see locals) and whose body only reads shared memory looks like a spin:
// xsync's TestMapParallelStoresAndDeletes ends with two goroutines doing
// LoadOrStore, 100,000 times each, of keys that are all present, which
// reads the same few thousand addresses and writes nothing; the window at
// 2^21 steps saw no progress and gopct reported a livelock in a test that
// ends in 20 ms. Such a loop ends, and its goroutine with it. So a
// livelock is reported only when the windows of liveConfirm checkpoints in
// a row (the checkpoints double: 3 windows span 3x the steps run before
// the first) saw no progress and no goroutine started or ended between
// them: a livelock is for ever, a bounded loop ends within the span as long
// as it is shorter than the execution before it. A real livelock is
// reported two checkpoints later than a single window would.
const liveConfirm = 3

// liveSuspect is what a window without progress leaves for the next
// checkpoint. Executions of a process run one at a time, and only the
// token holder reaches a checkpoint, so one value serves; exec says whose
// it is.
type liveSuspect struct {
	exec    *execution
	windows int // windows in a row without progress
	gs      int // goroutines started by the execution at the last one
	done    int // and ended
}

var liveSuspects liveSuspect

// clear forgets e's windows without progress: one progressed.
func (s *liveSuspect) clear(e *execution) {
	if s.exec == e {
		*s = liveSuspect{}
	}
}

// confirmed counts a window of e without progress and reports whether it
// makes liveConfirm in a row with the same goroutines alive.
func (s *liveSuspect) confirmed(e *execution) bool {
	done := 0
	for _, g := range e.gs {
		if g.state == gDone {
			done++
		}
	}
	if s.exec != e || s.gs != len(e.gs) || s.done != done {
		*s = liveSuspect{exec: e, gs: len(e.gs), done: done}
	}
	s.windows++
	return s.windows >= liveConfirm
}

// widenSites switches every memory site on and returns the function that
// restores the campaign's sites.
func widenSites() func() {
	saved := append([]bool(nil), sitesActive...)
	activateSites(nil)
	return func() { copy(sitesActive, saved) }
}

func (e *execution) unobserveLive() { e.observing = len(e.obs) > 0 }

// fairNext is the decision during a livelock window: the current
// goroutine continues until its turn (1 to 2*turnQuantum-1 points) is
// over, then round robin after it, with time passing when it can at one
// turn in n+1 on average (n runnable goroutines), as draw says.
func (e *execution) fairNext(d *Decision) int {
	lc := e.live
	if d.CurRuns && !d.Yield && lc.left > 0 {
		if i := gIndex(d.Choices, d.Cur); i >= 0 {
			lc.left--
			return i
		}
	}
	lc.turns++
	r := lc.draw()
	if d.CanPassTime && (len(d.Choices) == 0 || r%uint64(len(d.Choices)+1) == 0 && e.windowMayPass()) {
		if len(d.Choices) > 0 && !lc.clockFree {
			e.noteWindowPass()
		}
		lc.left = 0
		lc.passed = true
		return PassTime
	}
	lc.left = int((r >> 32) % uint64(2*e.turnQuantum()-1)) // a turn of 1 to 2*quantum-1 points
	after := -1
	if d.Cur != nil {
		after = d.Cur.id
	}
	for i, g := range d.Choices {
		if g.id > after {
			return i
		}
	}
	return 0
}

// draw is the window's pseudo-random number for its current turn: a hash
// (SplitMix64's finalizer) of the window's start and the turn's number, so
// that a replay, which opens the window at the same step, takes the same
// turns. Fixed turns of liveQuantum points, time passing at every
// (n+1)-th turn, locked into the period of a loop that sleeps between
// handoffs: every round began at the same point of the loop, and the one
// interleaving that deadlocks never came (GoKer's cockroach2448 and
// kubernetes13135, found at the first window with turns of one point; our
// testscript window_phase). Turns of varying length, and time passing at
// random once per n+1 turns on average, shift the phase at every round.
func (lc *liveCheck) draw() uint64 {
	x := (uint64(lc.start)<<32 ^ uint64(lc.turns)) + 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// clockFreeSpan bounds the time a clock-free window lets pass while
// goroutines can run. The window asks whether the goroutines wait for
// time; the first pass answers it whatever the next timer's distance (ants'
// workers spin while the test sleeps 1 s), later passes while the clock is
// within clockFreeSpan of the window's start. Unbounded, a long computation
// that shows no progress next to a ticker saw the clock run a tick per
// round: buntdb's TestBackgroudOperations reopens its database, replaying
// 200,000 logged Sets that store the values already there, while the
// database's 1 s background ticker waits; 600 ticks into one window the
// clock passed the 10 min timeout, a FALSE hang in a test that takes 2 s.
const clockFreeSpan = 10 * time.Second

// windowStepTime bounds how fast the livelock windows that are not
// clock-free let the clock run while goroutines can run: by no more than
// this per scheduling step the execution's windows have taken, beyond one
// scheduling delay (-max-delay) that reports state as such. A window's round
// robin offers time a pass about once per round, and a round of goroutines
// that block on a contended mutex is a few dozen steps: next to a 1 ms
// ticker (a cache's janitor) the clock ran a millisecond per round, seconds
// within one window, while the goroutines did work that takes milliseconds.
// ulule/limiter's TestCacheIncrementConcurrent saw its 67 goroutines'
// 33,500 increments, microseconds of work, last a full second, so the
// counter they share expired and was reset: a FALSE "Not equal" (testscript
// sweep_window_clock_rate). A scheduling point costs nanoseconds natively; a
// microsecond leaves room for a loaded machine: a window of liveWindow steps
// earns 65 ms. A clock-free window follows one that made no progress, and its
// goroutines wait for time: clockFreeSpan bounds it instead. With -max-delay
// 0 any delay is allowed, and a clock that runs ahead of the work is one.
const windowStepTime = time.Microsecond

// windowMayPass says whether the window may let time pass while goroutines
// can run (a pass when nobody can run is never in question).
func (e *execution) windowMayPass() bool {
	lc := e.live
	if lc.clockFree {
		return !lc.passed || now().Sub(lc.since) < clockFreeSpan
	}
	if e.maxDelay <= 0 {
		return true
	}
	d := e.timers.next(now()).Sub(now())
	return e.windowAhead+d <= e.maxDelay+sleepOvershoot+e.windowEarned()
}

// windowEarned is the time the steps of the execution's windows may take.
func (e *execution) windowEarned() time.Duration {
	return time.Duration(e.windowSteps+e.step-e.live.start) * windowStepTime
}

// noteWindowPass counts a pass of a window that is not clock-free while
// goroutines can run; what it takes beyond the windows' steps is a
// scheduling delay the schedule assumes, and reports say so.
func (e *execution) noteWindowPass() {
	e.windowAhead += e.timers.next(now()).Sub(now())
	if over := e.windowAhead - e.windowEarned(); over > 0 {
		e.early = max(e.early, over)
		e.earlyN++
	}
}

// gIndex is the index of g among gs, or -1.
func gIndex(gs []*G, g *G) int {
	for i, x := range gs {
		if x == g {
			return i
		}
	}
	return -1
}

// windowStays is decide's answer, without a Decision, at a point of a
// livelock window where the token holder's turn goes on: the last
// decision let it continue (e.windowStay: no yield, time could not pass)
// and nothing fairNext reads has changed (runnable goroutines, timers, a
// yield). It numbers the decision and counts the turn's point as
// fairNext would.
func (e *execution) windowStays() bool {
	lc := e.live
	if !e.windowStay || lc == nil || lc.left <= 0 || e.dirty || e.yielding || len(e.timers.at)+len(e.timers.tick) > 0 {
		return false
	}
	lc.left--
	e.seq++
	return true
}

// noteProgress is called with every event during a window.
func (e *execution) noteProgress(ev *Event) {
	switch ev.Kind {
	case EvBlock:
		return
	case EvRead:
		e.noteTouched(ev.Obj)
		return
	case EvAcquire, EvRelease:
		switch ev.Op {
		case KindLock, KindUnlock, KindRLock, KindRUnlock, KindOther, 0:
			return // mutex traffic moves nothing by itself
		}
	case EvWake:
		if ev.Obj == 0 {
			return // a model wait ended: the acquire that follows says what
		}
	case EvAtomic:
		if ev.Op == KindAtomicLoad {
			return
		}
	case EvTime:
		if e.live.clockFree {
			return // the clock runs here as it would in reality: what it wakes must progress
		}
	case EvWrite:
		if ev.Same {
			e.noteTouched(ev.Obj)
			return
		}
	}
	e.progressMade()
}

// noteTouched records an access that changed nothing; touching fresh
// memory long enough is progress (see liveCheck.touched).
func (e *execution) noteTouched(addr uintptr) {
	lc := e.live
	if lc.progress {
		return
	}
	if lc.touched == nil {
		lc.touched = map[uintptr]struct{}{}
	}
	lc.touched[addr] = struct{}{}
	if len(lc.touched) > freshProgress {
		e.progressMade()
	}
}

// progressMade settles the window's verdict: it progressed, so the
// execution goes on at its end. Nothing more need be watched: the events
// stop (unless an observer of the campaign wants them) and the sites that
// variable bounding left off are off again, so the rest of the window runs
// at the campaign's points, under the same round robin (a memory-bound
// merge sort spent a third of its CPU in two windows' watched steps).
func (e *execution) progressMade() {
	lc := e.live
	lc.progress = true
	lc.touched = nil
	e.unobserveLive()
	if e.narrowSites != nil {
		e.narrowSites()
		e.narrowSites = nil
	}
	e.unfast()
}

func (e *execution) failLivelock(site int) {
	if e.bodyDone {
		// The spinners outlived the test (ants' longRunningFunc workers,
		// never told to stop): go test would not hang; they are leaked.
		e.fail(e.leak(&Failure{Kind: FailLeak, Site: site, Goroutine: -1, Message: e.leftoverSummary(fmt.Sprintf(
			"goroutine leak: the test returned, and its goroutines spin without progress (%d steps under a "+
				"fair schedule):", liveWindow))}))
		return
	}
	e.fail(&Failure{Kind: FailLivelock, Site: site, Goroutine: -1, Message: fmt.Sprintf(
		"livelock: no progress in %d steps under a fair schedule after %d steps (only reads, atomic loads, "+
			"mutex traffic and stores of unchanged values); the goroutines loop without any of them being able to "+
			"finish", liveWindow, e.live.start)})
}

// leftoverGrace is how long (fake time) goroutines may run on after the
// test returned before they are a leak. The test's timeout (10 minutes by
// default) was the bound before, but a fast ticker loop then takes too many
// steps to get there: golang-lru's expirable cache ticks every 50µs, 12
// million ticks in 10 minutes, and its TestLoadingExpired was given up as
// too long instead of reporting the library's documented leak. A goroutine
// still alive ten seconds after its test returned is left behind.
const leftoverGrace = 10 * time.Second

// checkHang fails the execution when letting time pass by d would take the
// fake clock past the test's timeout. It also ends an execution whose test
// returned, set finalizers, and left goroutines that only timers move.
func (e *execution) checkHang(d time.Duration) bool {
	if e.bodyDone && e.finalizers > 0 {
		// A finalizer may stop those goroutines: go on no further
		// (go-cache's 1ms janitor would tick 600,000 times before the
		// timeout).
		e.fail(leftoversMayBeFinalized())
		return true
	}
	if e.bodyDone && now().Add(d).Sub(e.bodyDoneAt) > leftoverGrace {
		// The test has returned: go test would not hang, but the
		// goroutines it left behind (a ticker loop of a cache that was
		// never closed, as ristretto's tests leave) run for ever.
		e.fail(e.leak(&Failure{Kind: FailLeak, Site: -1, Goroutine: -1, Message: e.leftoverSummary(fmt.Sprintf(
			"goroutine leak: the test returned, and its goroutines had not ended %v after it (fake time):",
			leftoverGrace))}))
		return true
	}
	if e.timeout <= 0 || now().Add(d).Sub(e.clockStart) <= e.timeout {
		return false
	}
	e.fail(&Failure{Kind: FailHang, Site: -1, Goroutine: -1, Message: e.blockedSummary(fmt.Sprintf(
		"hang: the test would run past its %v timeout (the next timer is due %v after the start); ",
		e.timeout, now().Add(d).Sub(e.clockStart)))})
	return true
}

// timeWakesNobody says whether letting time pass can make no goroutine
// runnable: each one has exited or waits on a model (lock, WaitGroup, Cond,
// Once), and no timer callback is pending. Timers only
// send on their channels, run callbacks and end sleeps, so the pending
// timers (a ticker whose loop is stuck on a lock, as in GoKer's etcd7492)
// can never free anyone: the program is deadlocked, or leaks if the test
// returned. Without this, time passed tick after tick until the test's
// timeout (a "hang" 600,000 ticks of a 1ms ticker later) or the 10s
// leftover grace. Channels made outside the execution and goroutines outside
// its bubble that released a model (external.go) may wake anyone at any
// time, in real time: then time passes as before. Unmanaged goroutines of
// the bubble run only while its clock stands still, or because it moved:
// passTime waits outsideGrace for them.
// A goroutine blocked sending does not count as stuck: a timer gopct never
// saw (time.AfterFunc in a module it does not instrument, or called through
// a function value) may start a goroutine that receives, and until that
// goroutine runs nothing tells it exists (a false deadlock found in review).
func (e *execution) timeWakesNobody() bool {
	if e.foreignChan || e.outsider.Load() || len(e.enabledSet()) > 0 {
		return false
	}
	for _, g := range e.gs {
		switch {
		case g.syncWaiting: // synctest.Wait returns once the others block
			return false
		case g.state == gDone || g.state == gWaiting:
		default: // sleeping, receiving, in a select, a timer callback not fired
			return false
		}
	}
	return true
}

// outsideGrace bounds how long (fake time) an execution in which no
// managed timer can release anyone (timeWakesNobody) waits for a timer
// gopct never saw when the test has no timeout: another module's
// time.AfterFunc, whose callback may call wg.Done or mu.Unlock
// (external.go). A real run would wait for it until the test's timeout,
// and so does gopct: without such timers the bubble's clock jumps there at
// once (an uninstrumented loop that sleeps 1ms would run 600,000 times in
// ten minutes).
const outsideGrace = 10 * time.Minute

// outsideWait is how much longer the execution waits for timers gopct
// never saw before it is stuck for ever (0: no longer): until the test's
// timeout, or the leftovers' grace of a test that has returned, so that
// the report is the one stuckForEver makes, as before.
func (e *execution) outsideWait() time.Duration {
	if e.stuckSince.IsZero() {
		e.stuckSince = now()
	}
	end := e.stuckSince.Add(outsideGrace)
	if e.timeout > 0 {
		end = e.clockStart.Add(e.timeout)
	}
	if e.bodyDone && e.bodyDoneAt.Add(leftoverGrace).Before(end) {
		end = e.bodyDoneAt.Add(leftoverGrace)
	}
	return max(end.Sub(now()), 0)
}

// stuckForEver is the failure of an execution no goroutine and no timer can
// move on: as the bubble would report it without pending timers.
func (e *execution) stuckForEver() *Failure {
	switch {
	case e.bodyDone && e.finalizers > 0:
		return leftoversMayBeFinalized()
	case e.bodyDone:
		return e.leak(&Failure{Kind: FailLeak, Site: -1, Goroutine: -1, Message: e.blockedSummary("goroutine leak: the test returned while")})
	}
	return &Failure{Kind: FailDeadlock, Site: -1, Goroutine: -1, Message: e.blockedSummary("deadlock: all goroutines are blocked;")}
}

// leftoverSummary names the goroutines still alive after the test returned:
// blocked ones with what they wait for, runnable ones with where they are.
func (e *execution) leftoverSummary(prefix string) string {
	var gs stuckGroups
	for _, g := range e.gs {
		switch {
		case g.id == 0 || g.state == gDone || g.state == gDormant || g.daemon:
		case g.state == gEnabled:
			gs.add(g.id, "runnable at "+sitePos(g.site))
		default:
			gs.add(g.id, g.waitFor)
		}
	}
	return prefix + " " + gs.String()
}

// stuckGroups lists goroutines by what they are doing, those doing the
// same thing together, in the order of the first of each: a chain of 1,000
// goroutines blocked at one receive is one line, not 1,000 clauses.
type stuckGroups struct {
	whats []string
	ids   map[string][]int
}

func (s *stuckGroups) add(id int, what string) {
	if s.ids == nil {
		s.ids = map[string][]int{}
	}
	if _, ok := s.ids[what]; !ok {
		s.whats = append(s.whats, what)
	}
	s.ids[what] = append(s.ids[what], id)
}

func (s *stuckGroups) len() int { return len(s.whats) }

// String is "g1 WHAT; g2, g3 WHAT2; g4, g5, g6 and 994 more WHAT3".
func (s *stuckGroups) String() string {
	parts := make([]string, len(s.whats))
	for i, what := range s.whats {
		ids := s.ids[what]
		names := make([]string, 0, 3)
		for _, id := range ids[:min(len(ids), 3)] {
			names = append(names, gname(id))
		}
		who := strings.Join(names, ", ")
		if len(ids) > 3 {
			who += fmt.Sprintf(" and %d more", len(ids)-3)
		}
		parts[i] = who + " " + what
	}
	return strings.Join(parts, "; ")
}

// leftoversMayBeFinalized ends an execution whose test returned leaving
// goroutines behind, when it set finalizers gopct did not register: one of
// them may be what stops those goroutines (go-cache's janitor), so the
// leftovers are not reported as a leak.
func leftoversMayBeFinalized() *Failure {
	return &Failure{Kind: FailFinalizable, Site: -1, Goroutine: -1, Message: "the test returned leaving goroutines " +
		"that a finalizer gopct does not run may stop"}
}

// sameValue says whether storing the size bytes at v into p changes nothing.
func sameValue(p, v unsafe.Pointer, size uintptr) bool {
	return unsafe.String((*byte)(p), size) == unsafe.String((*byte)(v), size)
}
