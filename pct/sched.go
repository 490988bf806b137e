package pct

import (
	"math"
	"math/rand"
	randv2 "math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"
)

// gState is what a managed goroutine is doing, as far as the scheduler knows.
type gState uint8

const (
	gEnabled gState = iota // at a scheduling point (or running, if it holds the token)
	gInOp                  // inside a real blocking operation (channel, select, sleep)
	gWaiting               // disabled by a model (mutex, once, cond, waitgroup, end of test)
	gDone                  // exited
	gDormant               // created for a timer callback that has not fired
)

var stateNames = [...]string{"runnable", "blocked", "waiting", "exited", "timer not fired"}

// G is a managed goroutine. Its id is its creation index in the execution,
// which is the same in every replay because creation happens under the token.
type G struct {
	id      int
	parent  int
	created int // site of the go statement (-1 for the test goroutine)
	wake    chan struct{}
	gp      uintptr
	state   gState
	site    int    // site of the last scheduling point it reached
	waitFor string // what a disabled goroutine waits for, for reports
	waitObj any    // the object it waits on (mutex, once, cond, waitgroup)
	settle  bool   // must settle (synctest.Wait + merge) when it resumes
	inOp    bool   // counted in execution.inOp
	eager   bool   // an adopted callback that may start while others run
	native  bool   // blocked inside code gopct does not see, handed off (native.go)
	lastMem int    // site of its last (or pending) access to a shared object; -1: none
	// batched: accesses counted in a tally batch followed site (tally.go),
	// so the goroutine is at site or at one of them.
	batched bool
	// syncWaiting: in synctest.Wait, until nobody else can run.
	syncWaiting bool
	// pending is the operation g is about to perform at its scheduling
	// point (Site -1: not known, e.g. a goroutine that has not run yet).
	pending Access
	// locked is the mutex g locked last and lockedModel its model: the
	// Unlock that usually follows finds the model without the table.
	locked      unsafe.Pointer
	lockedModel *lockModel
	// writing is the model of the map whose write g has begun
	// (mapWriteBegin) and not yet ended.
	writing *mapModel
	// selForeign and selMasked: the select g is about to run has a
	// channel made outside the test, and its blocking select leaves
	// such channels out; kick wakes it from that select (foreign.go).
	selForeign, selMasked bool
	kick                  chan struct{}
	// readySince and readyWork are the clock and g's work credit
	// (workCredit) when g last became able to run: created or woken. Time
	// passes while g can run only within -max-delay of it, plus the work
	// done since (readyWait).
	readySince time.Time
	readyWork  time.Duration
	// yieldCut is g's work credit at the first runtime.Gosched by another
	// goroutine since g became able to run (-1: none yet): the work done
	// after it does not excuse g's wait (readyWaits).
	yieldCut time.Duration
	// ranAt and ranWork are the clock and the work credit when g's last
	// run ended with g still able to run (preempted): the wait since then
	// is bounded too (workcredit.go).
	ranAt   time.Time
	ranWork time.Duration
	// inGlobalOnce counts the Do calls of package-level Onces g is in;
	// daemon: g was started inside one, or by a daemon (daemons.go).
	inGlobalOnce int
	daemon       bool
}

// execution is the state of one controlled run of a test body. All fields
// are owned by the token holder, except those under mu, which goroutines
// coming back from real blocking operations also touch.
type execution struct {
	index     int
	strategy  Strategy
	rec       *recorder
	dec       Decision    // the decision being made (reused: no allocation per point)
	obs       []Observer  // subscribers to the event stream
	observing bool        // len(obs) > 0, tested on every operation
	evBuf     Event       // the event being emitted (emit)
	selBuf    SelectCases // the cases of the select being emitted (emitSelect)
	access    Access      // the operation at the current scheduling point

	gs      []*G
	enabled []*G // sorted by id; rebuilt when dirty
	dirty   bool
	step    int // scheduling points so far
	// The run in progress (workcredit.go): its goroutine (nil: the clock),
	// the step it began at, and the step from which other goroutines could
	// run too (maxInt: none yet); runsCredit is the work credit of the runs
	// that ended.
	runner               *G
	runFrom, crowdedFrom int
	runsCredit           time.Duration
	seq                  int    // decisions so far
	fp                   uint64 // fingerprint of the path: every step's goroutine, site and kind
	limits               *stepLimits
	nextCheck            int        // step of the next livelock checkpoint
	live                 *liveCheck // an open livelock window, or nil
	// narrowSites restores the campaign's memory sites after a window
	// widened them (nil: not widened).
	narrowSites func()
	// timeout is the test's timeout in fake time (0: none), counted from
	// clockStart, the fake time at which the execution began.
	timeout    time.Duration
	clockStart time.Time
	epoch      int64 // unix ns at which the bubble's clock starts (epoch.go; 0: the bubble's own start)
	readings   int64 // time.Now readings so far: each leads the bubble's clock by 1ns more (clock.go)
	standstill bool  // the test's own synctest.Test began: readings no longer move (clock.go)

	lazyTime bool // time passes only when no goroutine can run (-early-timers=false)
	// subMatched: a subtest at -run's deepest level ran (a hunt of a
	// subtest, or of a suite method, that ran none tests nothing);
	// subSkipped: -run's levels left a subtest out. A test that starts no
	// subtest runs its body, as under go test.
	subMatched, subSkipped bool
	maxDelay               time.Duration // a timer fires early only when due within this (0: any)
	// tenureAt is the bubble's clock when the token holder was last
	// given (or kept) the token, zero while nobody holds it or with
	// -max-delay 0 (holdtime.go).
	tenureAt       time.Time
	othersAtTenure bool // goroutines other than the holder could run when tenureAt was noted
	// pools: the objects Put to each sync.Pool in this execution, the only
	// ones its Gets hand back (PoolGet).
	pools map[*sync.Pool][]any
	// finalizers: SetFinalizer/AddCleanup calls left unregistered in this
	// execution; goroutines left after the test are then no leak.
	finalizers int
	// collected: the test called runtime.GC after one of those, waiting
	// for the finalizer to run (finalizerWait).
	collected bool
	// memStats: the first call of the execution that measured the
	// process's memory, and its site (memstats.go).
	memStats     string
	memStatsSite int
	yielding     bool // the current point is a runtime.Gosched
	// stay: the last decision let the token holder continue at a
	// scheduling point, with no timer pending (see stays).
	stay bool
	// windowStay: the last decision, in a livelock window, let the token
	// holder continue with no timer pending (see windowStays).
	windowStay bool
	stayer     stayer // the strategy, if it is one (nil: every point decides)
	// horizon is the strategy if its choice changes only at known steps
	// (PCT); while stay holds, points before step stayStep keep the holder
	// without a call.
	horizon  horizonStayer
	stayStep int
	// fastTo: memory accesses before this step need no decision and no
	// check, as long as nothing calls unfast (stay.go, memFast).
	fastTo int
	// hits is the strategy's per-site access counters (siteCounter), or nil.
	hits []int
	// tallyState says whether tally batches may open (tally.go),
	// tallyRep is the site at which the strategy counts a batch, and
	// tallyG the goroutine of the last batch.
	tallyState int8
	tallyRep   int
	tallyG     *G
	streak     int // memory steps in a row under the fast bound (tallyStreak)
	// foreignChan: the execution used a channel made outside it, so
	// goroutines outside the bubble may be part of its communication.
	foreignChan bool
	// signalsOn: the test's code registered a signal handler (signals.go).
	signalsOn bool
	// masked: the goroutines waiting in a select that left channels made
	// outside the test out, to kick when one of those changes (foreign.go).
	masked []*G
	early  time.Duration
	earlyN int
	// windowAhead: the time livelock windows that are not clock-free let
	// pass while goroutines could run, and windowSteps the steps of the
	// windows closed (windowStepTime).
	windowAhead time.Duration
	windowSteps int

	// curGP is the runtime id of the token holder. Atomic: unmanaged
	// goroutines read it (self) while deciders write it, and under Go's race
	// detector (-gorace) a plain field was reported as the program's race.
	curGP   atomic.Uintptr
	holder  *G
	inOp    int // goroutines in real operations
	dormant int // callbacks adopted (AfterFunc) that have not started
	// eager counts goroutines that may come back while another runs:
	// adopted callbacks of context.AfterFunc, and goroutines handed off
	// inside code gopct does not instrument (native.go).
	eager int
	// syncWaiters counts goroutines in synctest.Wait.
	syncWaiters int
	mayWake     bool // a real operation since the last settle may have woken one
	timers      timerSet
	models      map[any]any // WaitGroup, Once, Cond and test frame models
	// The models looked up at every Lock, Unlock and map access, by the
	// object's address (ptrtable.go).
	mutexes   ptrTable[lockModel]
	rwMutexes ptrTable[lockModel]
	maps      ptrTable[mapModel]
	inWrite   []unsafe.Pointer // maps whose model has a writer (a read looks its map up only then), in the order their writes began
	// timerCallbacks: the time.AfterFunc timers of the execution and the
	// goroutine of each one's next firing (spawn.go, timerCallback).
	timerCallbacks map[*time.Timer]*timerCallback
	abortCh        chan struct{}
	// waitSem lets one of gopct's own goroutines at a time call
	// synctest.Wait (bubbleWait); made in the bubble, so waiting for it
	// is durable.
	waitSem chan struct{}
	// semWaiters counts the goroutines blocked on waitSem: a token holder
	// there is in gopct's own wait, not blocked in code gopct does not see
	// (guardFire).
	semWaiters atomic.Int32
	bodyDone   bool
	// The test function: its goroutine and T; bodyNormal once it has
	// returned (not stopped by t.FailNow, t.SkipNow or a panic).
	g0         *G
	bodyT      *testing.T
	bodyNormal bool
	// hosted: the instrumented test function runs itself under testing's
	// tRunner (Redirect, BodyEnd); testDepth counts the test functions it
	// is inside (a test calling another runs its body inline); fatalExit:
	// the test function called t.Fatal, t.Fatalf or t.FailNow.
	hosted     bool
	testDepth  int
	fatalExit  bool
	bodyDoneAt time.Time // fake time at which the test function returned
	bodyFailed bool      // the test had failed as its function returned (finishBody)
	// realStart: real time at the start (children.go); childrenAt,
	// children: when child processes were last looked for, and the answer.
	realStart, childrenAt time.Duration
	children              bool

	mu       sync.Mutex
	idle     bool // nobody holds the token
	deciding bool // a goroutine is deciding from the idle state
	pending  []*G // returned from real operations, not yet merged
	// The guard timer and the goroutines handed off while blocked inside
	// code gopct does not instrument (native.go); nativeN is their number,
	// read without mu by goroutines that do not hold the token.
	guard      *time.Timer
	guardArmed bool
	handedOff  *G // the goroutine the guard's decision takes the token from
	natives    []*G
	nativeN    atomic.Int32
	// ext: synchronisation operations of unmanaged goroutines, not yet
	// applied to the models (external.go).
	bubble    string // the execution's synctest bubble (currentBubble)
	ext       []extOp
	extQueued atomic.Bool // ext is not empty (applyQueued)
	// stuckSince: the fake time since which no managed timer can release
	// anyone (timeWakesNobody), zero when something moved since.
	stuckSince time.Time

	// clockMarks: where the clock stood in real time, at the start and
	// each time it passed (filetime.go).
	clockMarks []clockMark

	failure  *Failure
	messages []message
	aborted  atomic.Bool
	// failWaits is what each goroutine waited for when the failure was
	// recorded (waitFor), by id: a goroutine woken as the execution ends
	// (a sleeper whose timer fires) has cleared its own by the time the
	// report lists the goroutines.
	failWaits map[int]string

	// randSeed seeds the execution's math/rand and math/rand/v2 sources
	// (globalrand.go), made on first use.
	randSeed uint64
	rand1    *rand.Rand
	rand2    *randv2.Rand
	keyOrder keyOrder // map keys holding addresses, in store order (keyorder.go)
	drawFP   uint64   // the random draws alone (globalrand.go)
	// unmanaged counts instrumented operations run by goroutines gopct
	// does not manage (started by code it does not instrument, such as
	// net/http's server); unmanagedAt is where the first one ran.
	unmanaged atomic.Int64
	// outsider: a goroutine outside the bubble released a model
	// (external.go), in real time, which fake time cannot wait for.
	outsider    atomic.Bool
	unmanagedAt atomic.Pointer[string]
}

// current is the execution in progress in this process, or nil.
var current atomic.Pointer[execution]

// self returns the execution and the calling goroutine if the caller is the
// token holder of a live execution; otherwise nil, nil and the caller runs
// natively.
func self() (*execution, *G) {
	e := current.Load()
	if e == nil {
		return nil, nil
	}
	if getg() == e.curGP.Load() {
		if tallyGranted != 0 {
			e.closeAtEntry()
		}
		return e, e.holder
	}
	// One handed off inside code gopct does not instrument comes back.
	if e.nativeN.Load() > 0 {
		if g := e.returnFromNative(); g != nil {
			return e, g
		}
	}
	// A goroutine that does not hold the token: one started by code gopct
	// does not instrument, or one of an aborted execution. It runs
	// natively.
	if !e.aborted.Load() {
		e.noteUnmanaged()
	}
	return nil, nil
}

// holding is the execution whose token the caller holds, or nil: self's
// test alone, without its bookkeeping (issue 11: the call of self was ~2 ns
// of a ~13 ns Lock). Not inlined on go1.26 (cost 90 against a budget of 80:
// the call of the assembly getg is most of it). Callers that get nil call
// self for its bookkeeping.
func holding() *execution {
	if e := current.Load(); e != nil && getg() == e.curGP.Load() {
		if tallyGranted != 0 {
			e.closeAtEntry()
		}
		return e
	}
	return nil
}

func controlled() bool {
	e, _ := self()
	return e != nil
}

func newExecution(index int, s Strategy, limits *stepLimits) *execution {
	if tallyOn {
		tally, tallyGranted = 0, 0 // nothing of an earlier execution's batch
		resetSyncTally()
	}
	e := &execution{
		index:       index,
		strategy:    s,
		limits:      limits,
		nextCheck:   limits.nextCheck(0),
		crowdedFrom: math.MaxInt,
		models:      map[any]any{},
		rec:         newRecorder(),
		access:      noAccess,
	}
	e.stayer, _ = s.(stayer)
	e.horizon, _ = s.(horizonStayer)
	if c, ok := s.(siteCounter); ok {
		e.hits = c.siteHits()
	}
	return e
}

func (e *execution) newG(parent *G, site int) *G {
	g := &G{id: len(e.gs), parent: -1, created: site, wake: make(chan struct{}, 1), site: site, lastMem: -1, pending: noAccess, readySince: now(), yieldCut: -1}
	g.readyWork = e.workCredit()
	if parent != nil {
		g.parent = parent.id
		g.daemon = parent.daemon || parent.inGlobalOnce > 0
	}
	if len(e.gs) == 0 {
		e.runner = g // the first goroutine runs first
	}
	e.gs = append(e.gs, g)
	e.dirty = true
	e.unfast()
	return g
}

// enabledSet returns the goroutines that may run next, sorted by id.
func (e *execution) enabledSet() []*G {
	if !e.dirty {
		return e.enabled
	}
	e.enabled = e.enabled[:0]
	for _, g := range e.gs {
		if g.state == gEnabled {
			e.enabled = append(e.enabled, g)
		}
	}
	e.dirty = false
	return e.enabled
}

func (e *execution) setState(g *G, s gState) {
	if tallyGranted != 0 {
		// The runnable set changes: the holder's batch ends here. Runtime
		// code may do this after user code without another entry: onceDo
		// wakes the Do waiters once the user's f returns, a subtest's end
		// lets its parent go on (review of tally batches).
		e.closeTally()
	}
	if s == gEnabled && g.state != gEnabled {
		g.readySince, g.readyWork, g.yieldCut = now(), e.workCredit(), -1
	}
	g.state = s
	e.dirty = true
	e.unfast()
}

// timeCanPass says whether letting the fake clock run is a valid choice: a
// timer is pending, and either nobody can run, or early timers are allowed
// and the next one is due within the scheduling delay bound: firing it now
// models runnable goroutines delayed that long, and real schedulers delay a
// runnable goroutine by milliseconds, not by seconds (docs/DESIGN.md).
func (e *execution) timeCanPass(runnable int) bool {
	if !e.timers.pending(now) {
		return false
	}
	if runnable == 0 || (e.live != nil && e.live.clockFree) {
		return true
	}
	if e.lazyTime {
		return false
	}
	// A sleep's 1µs overshoot (sleepOvershoot) is no scheduling delay: a
	// 100ms sleep against -max-delay 100ms may still end early.
	return e.maxDelay <= 0 || e.readyWait() <= e.maxDelay+sleepOvershoot
}

// readyWait is the longest delay a goroutine that can run will have had
// when the next timer fires: the clock's advance since it became able to
// run (created or woken), less the work done since, windowStepTime per
// scheduling step of any goroutine (on a loaded machine the others' work
// delays it too). Being scheduled for a step does not end a wait: a
// goroutine that gets one step in a while is hardly slower natively than one
// that waits throughout. The bound is on that delay, not on one step of the
// clock. Chains of timers, each within -max-delay, gave FALSE reports:
// go-pkgz/syncs' TestSizedGroup asserts that most of 1000 functions, each
// sleeping 5 ms, 10 at a time, have not ended when the loop that starts
// them returns; the clock passed from one 5 ms timer to the next while the
// test's goroutine, runnable throughout, waited ~500 ms, or ran a step now
// and then (testscript sweep_starved_ready).
func (e *execution) readyWait() time.Duration {
	wait, _ := e.readyWaits()
	return wait
}

// readyWaits is readyWait, and the longest wait without the work taken
// off, which reports state: "delayed 5s" for a 5 s watchdog, not 4.999997s.
func (e *execution) readyWaits() (net, gross time.Duration) {
	next := e.timers.next(now())
	for _, g := range e.enabledSet() {
		d := next.Sub(g.readySince)
		worked := e.workCredit()
		if g.yieldCut >= 0 {
			// Another goroutine yielded while g could run: a real
			// scheduler runs g then (Gosched puts the caller behind the
			// runnable goroutines), so what that goroutine did next was
			// no load that kept g waiting. Without this a loop spinning
			// on Gosched while it waits for g excused any wait of g:
			// otel's TestBatchSpanProcessorMetricsDisabled polls for its
			// exporter so, and 900,000 steps later its 1 s context timed
			// out (a FALSE report, sweep regr36; testscript
			// sweep_yield_starved).
			worked = g.yieldCut
		}
		net = max(net, d-(worked-g.readyWork))
		gross = max(gross, d)
		if g != e.runner && !g.ranAt.IsZero() && !g.ranAt.Before(g.readySince) {
			net = max(net, next.Sub(g.ranAt)-(e.workCredit()-g.ranWork)) // since it was preempted
		}
	}
	return net, gross
}

// noteYield records a runtime.Gosched by cur: for each other goroutine
// that can run, the first yield since it became able to (readyWaits).
func (e *execution) noteYield(cur *G) {
	for _, g := range e.enabledSet() {
		if g != cur && g.yieldCut < 0 {
			g.yieldCut = e.workCredit()
		}
	}
}

// point is a scheduling point: g, the token holder, is about to perform the
// operation at site. The strategy decides who runs next. Inlined: one call
// (issue 11: each call level cost ~1 ns of a ~13 ns Lock).
func (e *execution) point(g *G, site int) { e.stepAt(g, site, 0, 0, false, 0) }

// pointAt is point with the access described (memory accesses know their
// address and direction).
func (e *execution) pointAt(g *G, a Access) { e.stepAt(g, a.Site, a.Kind, a.Addr, a.Write, a.Size) }

// stepAt is a scheduling point of g at the access (site, kind, addr,
// write, size) of an Access; kind 0 is the site's kind (siteKind, which
// is 0 for an unknown site). It counts the step (fingerprint, trail,
// progress, livelock checkpoints); g continues without a decision before
// the strategy's horizon or when the strategy says so (stays), otherwise
// decidePoint asks. The fields are passed
// apart, in registers: an Access passed by value was stored to the stack
// and reloaded at every point, and one passed by address was built with
// byte stores and copied with 16-byte loads (a store-forwarding stall, half
// of a memory access's scheduling point; issue 11).
func (e *execution) stepAt(g *G, site int, kind SiteKind, addr uintptr, write bool, size uintptr) {
	if kind == 0 {
		kind = siteKind(site)
	}
	if tallyGranted != 0 {
		e.closeTally()
	}
	streak := e.streak
	e.streak = 0 // a scheduling point off the fast bound (tallyStreak), unless it stays below
	g.site, g.batched = site, false
	if onObject(kind) {
		g.lastMem = site
	}
	e.step++
	if fingerprinting {
		e.foldStep(g.id, site, kind)
		e.rec.step(g.id, site)
		if e.rec.follow != nil {
			e.rec.follow.checkStep(e.step, g.id, site)
		}
	}
	if e.step&1023 == 0 || e.mayWake || e.eager > 0 || e.step >= e.nextCheck || e.aborted.Load() {
		e.pointChecks(g, site) // rare: one branch on the common path
	}
	if e.hits != nil && e.live == nil && uint(site) < uint(len(e.hits)) {
		e.hits[site]++ // the access the strategy counts (siteCounter)
	}
	if e.stay && e.quiet() && (e.step < e.stayStep ||
		e.stays(g, Access{Site: site, Kind: kind, Addr: addr, Write: write, Size: size})) {
		e.seq++ // the decision is made, as decide would number it
		if tallyOn && (syncBatchable(kind) || isMemory(kind)) &&
			e.step >= maxTrailSteps && e.tallyState != tallyUnusable {
			e.continueStreak(streak)
		}
		return
	}
	if e.windowStay && e.windowStays() {
		if tallyOn && (isMemory(kind) || syncBatchable(kind)) {
			e.openWindowTally()
		}
		return
	}
	e.decidePoint(g, Access{Site: site, Kind: kind, Addr: addr, Write: write, Size: size})
}

// decidePoint asks the strategy at a scheduling point of g at access a.
func (e *execution) decidePoint(g *G, a Access) {
	e.access = a
	g.pending = a
	e.decide(g, turnPoint, false)
	e.access = noAccess
	g.pending = noAccess
}

// pointChecks is the rare work of a scheduling point, in this order: the
// progress count for the stall watchdog, settling goroutines a real
// operation may have woken, a livelock checkpoint, an abort.
func (e *execution) pointChecks(g *G, site int) {
	if e.step&1023 == 0 {
		progress.Add(1)
	}
	if e.mayWake || e.eager > 0 {
		e.settle()
	}
	if e.step >= e.nextCheck {
		e.atCheckpoint(site)
	}
	if e.aborted.Load() {
		e.park(g)
	}
}

// turn says in which situation a decision is made; it fixes what the
// deciding goroutine does once the token has gone elsewhere.
type turn uint8

const (
	// turnPoint: cur reached a scheduling point and may continue; if
	// another goroutine is chosen, cur parks until it is chosen again.
	turnPoint turn = iota
	// turnLeave: cur cannot continue (it is about to block in a real
	// operation, waits in a model, or exited); it does not park here.
	turnLeave
	// turnIdle: nobody held the token; cur came back from a real
	// operation (nil: the clock fired). If cur is not chosen it parks.
	turnIdle
)

var noAccess = Access{Site: -1}

// decide is the one place where the engine asks the strategy who runs
// next, records the choice, and passes the token, lets time pass, goes
// idle or abandons the execution. settleNext makes the chosen goroutine
// settle before it runs (cur is about to block in a real operation).
func (e *execution) decide(cur *G, t turn, settleNext bool) {
	if tallyGranted != 0 {
		e.closeTally()
	}
	if !e.tenureAt.IsZero() && cur != nil && t != turnIdle && e.heldTooLong(cur) {
		<-e.abortCh // given up (holdtime.go): stays blocked, durably
	}
	e.stay, e.windowStay = false, false
	e.unfast()
	e.applyQueued()
	ch := e.enabledSet()
	if len(ch) == 0 && e.releaseSyncWaiters() {
		ch = e.enabledSet()
	}
	if len(ch) == 0 && e.inOp > 0 && e.timers.pending(now) {
		// Before the clock jumps, let a goroutine that code gopct does
		// not see has woken come back (pond's futures: a context's
		// cancel, inside the standard library, closes the channel a
		// future's Wait receives on): otherwise time passes while it
		// could run, and pond's 2 s watchdog fired on a finished pool.
		e.settle()
		ch = e.enabledSet()
	}
	if len(ch) > 1 {
		e.crowdedFrom = min(e.crowdedFrom, e.step)
	}
	canTime := e.timeCanPass(len(ch))
	parks := cur != nil && t != turnLeave
	if len(ch) == 0 && !canTime {
		e.goIdle()
		if parks {
			e.park(cur)
		}
		return
	}
	seen := cur // who the strategy and the trace see at the choice
	if t == turnIdle {
		seen = nil // nobody was running: no goroutine is switched away from
	}
	d := &e.dec
	*d = Decision{Step: e.step, Seq: e.nextSeq(), FP: e.fingerprint(), Cur: seen, CurRuns: t == turnPoint,
		Yield: e.yielding && t == turnPoint, Choices: ch, CanPassTime: canTime, Access: e.access}
	var pick int
	if e.live != nil {
		pick = e.fairNext(d)
	} else {
		pick = e.strategy.Next(d)
	}
	if pick == Abandon {
		e.fail(&Failure{Kind: FailAbandoned, Message: "the strategy abandoned the execution", Site: e.access.Site})
		if parks {
			e.park(cur)
		}
		return
	}
	var next *G
	if pick >= 0 {
		next = ch[pick]
	}
	e.startTenure(next, len(ch))
	if next == cur && t == turnPoint {
		e.stay = e.live == nil && !canTime && !d.Yield
		e.windowStay = e.live != nil && !canTime && !d.Yield
		if e.stay && e.horizon != nil {
			e.stayStep = e.horizon.horizon()
		}
		return // cur continues: not a switch, not recorded
	}
	e.rec.switchTo(e, seen, next, t == turnPoint, t != turnPoint && pick == d.Option(0))
	e.endRun(next, len(ch) > 1)
	switch {
	case next == nil:
		e.passTime()
	case next == cur && t == turnIdle: // the goroutine that came back runs on
		e.handToSelf(cur)
		return
	default:
		e.handTo(next, settleNext)
	}
	if parks {
		e.park(cur)
	}
}

// handTo gives the token to next and wakes it.
func (e *execution) handTo(next *G, settle bool) {
	e.mu.Lock()
	e.holder = next
	e.curGP.Store(next.gp)
	e.idle = false
	next.settle = settle
	e.mu.Unlock()
	next.wake <- struct{}{}
}

// park blocks g until it is handed the token.
func (e *execution) park(g *G) {
	if e.aborted.Load() {
		<-e.abortCh // never closed: the goroutine stays blocked, durably
	}
	<-g.wake
	if e.aborted.Load() {
		<-e.abortCh
	}
	g.gp = getg()
	e.curGP.Store(g.gp)
	if g.settle {
		g.settle = false
		e.settle()
	}
}

// goIdle leaves the token with nobody: every goroutine is blocked. Time may
// pass (the bubble fires the next timer) or the bubble reports a deadlock.
func (e *execution) goIdle() {
	e.tenureAt = time.Time{}
	e.mu.Lock()
	e.idle = true
	e.holder = nil
	e.curGP.Store(0)
	e.disarmGuard() // nobody holds the token: nothing for it to take (native.go)
	// An unmanaged goroutine queued an operation while the token was
	// held (external.go): it did not start a decision, so one starts now.
	kick := len(e.ext) > 0 && !e.deciding
	if kick {
		e.deciding = true
	}
	e.mu.Unlock()
	if kick {
		go e.decideIdle(nil) // without synctest.Wait, as external's
	}
}

// settle waits until every goroutine woken by a real operation has come back
// to the scheduler, then merges them in id order. This makes the enabled set
// the same in every run.
func (e *execution) settle() {
	if e.inOp > 0 || e.dormant > 0 || len(e.pending) > 0 {
		e.bubbleWait()
	}
	e.merge()
	e.mayWake = false
}

// bubbleWait is synctest.Wait for gopct's own goroutines, one at a time:
// the runtime panics "wait already in progress" when two goroutines of a
// bubble wait at once, and the guard (native.go) fires on a goroutine of
// its own when the clock reaches it, possibly at the instant another
// timer wakes a goroutine that settles or decides (reactivex/rxgo's
// Test_Observable_BackOffRetry: a fatal "wait already in progress" at
// execution #0, sweep regr34). The second waits on waitSem, durably, so
// the first's Wait still returns.
func (e *execution) bubbleWait() {
	e.semWaiters.Add(1)
	e.waitSem <- struct{}{}
	e.semWaiters.Add(-1)
	synctest.Wait()
	<-e.waitSem
}

func (e *execution) merge() {
	e.mu.Lock()
	p, ops := e.pending, e.ext
	e.pending, e.ext = nil, nil
	e.extQueued.Store(false)
	e.mu.Unlock()
	if len(p) > 0 || len(ops) > 0 {
		e.stuckSince = time.Time{} // something moved (checkHang)
	}
	e.applyExternal(ops)
	sort.Slice(p, func(i, j int) bool { return p[i].id < p[j].id })
	for _, g := range p {
		if g.inOp {
			g.inOp = false
			e.inOp--
		}
		if g.native {
			e.backFromNative(g)
		}
		if g.state == gDormant {
			e.dormant--
			if g.eager {
				e.eager--
			}
		}
		e.setState(g, gEnabled)
	}
}

// blockIn runs a real blocking operation: the token goes to another
// goroutine first, which settles before running, so that op has blocked by
// the time anyone else acts.
func (e *execution) blockIn(g *G, obj uintptr, what string, op func()) {
	e.note(EvBlock, g, g.site, obj)
	e.blockStart(g, what)
	op()
	e.comeBack(g)
	e.note(EvWake, g, g.site, obj)
}

// blockStart is blockIn's part between the EvBlock and the real
// operation: g blocks and hands the token on.
func (e *execution) blockStart(g *G, what string) {
	e.setState(g, gInOp)
	g.waitFor = what
	g.inOp = true
	e.inOp++
	e.handOff(g, true)
}

// handOff passes the token from g, which cannot continue, to the strategy's
// choice; with nobody to run, the scheduler goes idle.
func (e *execution) handOff(g *G, settle bool) {
	if e.mayWake || e.nativeN.Load() > 0 {
		// A goroutine handed off inside code gopct does not instrument
		// may have come back (native.go).
		e.settle()
	}
	if len(e.enabledSet()) == 0 && (e.inOp > 0 || e.dormant > 0) && !e.timeCanPass(0) {
		// Code gopct does not see (a context's cancel function closing
		// its Done channel) may have woken a goroutine blocked in a real
		// operation, or started an adopted callback (context.AfterFunc):
		// look before declaring that nobody can run.
		e.settle()
	}
	e.decide(g, turnLeave, settle)
}

// comeBack is called by g when its real blocking operation returns. If
// nobody holds the token g decides; otherwise it waits to be merged and
// scheduled.
func (e *execution) comeBack(g *G) {
	e.mu.Lock()
	g.waitFor = ""
	g.gp = getg()
	if e.idle && !e.deciding {
		e.deciding = true
		e.pending = append(e.pending, g)
		e.mu.Unlock()
		e.decideFromIdle(g)
		return
	}
	e.pending = append(e.pending, g)
	e.mu.Unlock()
	e.park(g)
}

// decideFromIdle is run by the first goroutine to wake while nobody holds
// the token (after time passed). g is that goroutine, or nil for the clock.
func (e *execution) decideFromIdle(g *G) {
	if g != nil {
		e.mu.Lock()
		e.curGP.Store(getg())
		e.holder = g
		e.mu.Unlock()
	}
	e.bubbleWait()
	e.decideIdle(g)
}

// decideIdle is decideFromIdle once the goroutines woken at this instant
// have come back (or, for an unmanaged goroutine's operation, without
// waiting for them: external.go).
func (e *execution) decideIdle(g *G) {
	e.merge()
	e.mu.Lock()
	e.deciding = false
	e.idle = false
	e.mu.Unlock()
	e.mayWake = false
	e.closeTally() // the holder stopped in code gopct does not see, or blocked
	e.armGuard()   // the clock moved, or the guard fired: watch the next idle moment
	e.step++
	e.fp = (e.fp ^ 0xfeed) * fpPrime // a decision after time passed or a wake-up
	if fingerprinting {
		e.rec.step(timeID, -1)
		if e.rec.follow != nil {
			e.rec.follow.checkStep(e.step, timeID, -1)
		}
	}
	if e.step >= e.nextCheck {
		e.atCheckpoint(-1)
	}
	if e.aborted.Load() {
		if g != nil {
			e.park(g)
		}
		return
	}
	e.decide(g, turnIdle, false)
}

func (e *execution) handToSelf(g *G) {
	e.mu.Lock()
	e.holder = g
	e.curGP.Store(getg())
	e.mu.Unlock()
}

// passTime lets the fake clock run to the next pending timer: nobody holds
// the token, a clock goroutine wakes at the deadline and decides.
func (e *execution) passTime() {
	d := e.timers.next(now()).Sub(now())
	if e.timeWakesNobody() {
		// No timer gopct manages can release anyone; one it never saw
		// (external.go) still may, so the clock runs to the end of
		// outsideGrace instead, past the managed timers' ticks.
		if d = e.outsideWait(); d <= 0 {
			e.fail(e.stuckForEver())
			return
		}
	}
	if e.checkHang(d) {
		return
	}
	e.keepPace(d)
	if len(e.enabledSet()) > 0 && e.live == nil {
		// A timer fires while goroutines could still run: the schedule
		// assumes they were delayed that long. Reports say so.
		_, wait := e.readyWaits()
		e.early = max(e.early, wait)
		e.earlyN++
	}
	if e.observing {
		e.emit(Event{Kind: EvTime, G: timeID, Other: int(d), Site: -1})
	}
	e.goIdle()
	time.AfterFunc(d, e.clockTick)
}

// clockTick runs in its own goroutine when time has passed on our request.
func (e *execution) clockTick() {
	e.mu.Lock()
	if !e.idle || e.deciding || e.aborted.Load() {
		e.mu.Unlock()
		return
	}
	e.deciding = true
	e.mu.Unlock()
	e.markClock()
	e.decideFromIdle(nil)
}

// fail records the first failure and aborts the execution: every managed
// goroutine stays blocked, and the runner tears the bubble down.
func (e *execution) fail(f *Failure) {
	if f.Kind != FailStepLimit && !e.tenureAt.IsZero() && e.holder != nil && getg() == e.curGP.Load() {
		if g := e.heldFailure(e.holder); g != nil {
			f = g // the failure came after a schedule no real run makes (holdtime.go)
		}
	}
	e.closeIfHolder()
	e.mu.Lock()
	if e.failure == nil {
		f.Step = e.step
		e.failure = f
		e.failWaits = e.waits()
	}
	e.mu.Unlock()
	e.aborted.Store(true)
}

// waits is what each goroutine waits for now (failWaits).
func (e *execution) waits() map[int]string {
	w := map[int]string{}
	for _, g := range e.gs {
		if g.waitFor != "" {
			w[g.id] = g.waitFor
		}
	}
	return w
}

// fingerprinting is false only when a benchmark measures the fingerprint's
// cost (Config.NoFingerprint).
var fingerprinting = true

// fpPrime is FNV-1a's 64-bit prime: the fingerprint is an FNV-style hash.
const fpPrime = 0x100000001b3

// fingerprint folds the path hash to 32 bits, never 0 (0 means "not
// recorded").
func (e *execution) fingerprint() uint32 { return uint32(e.fp^e.fp>>32) | 1 }

// nextSeq numbers a new decision.
func (e *execution) nextSeq() int {
	e.seq++
	return e.seq
}

// failStepLimit abandons an execution that ran past -max-steps (not a bug:
// the campaign counts it and goes on).
func (e *execution) failStepLimit(site int) {
	e.fail(&Failure{Kind: FailStepLimit, Message: "execution exceeded the step limit", Site: site})
}

func now() time.Time { return time.Now() }
