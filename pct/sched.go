package pct

import (
	"sort"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"
)

// gState is what a managed goroutine is doing, as far as the scheduler knows.
type gState uint8

const (
	gEnabled  gState = iota // at a scheduling point (or running, if it holds the token)
	gInOp                   // inside a real blocking operation (channel, select, sleep)
	gReturned               // came back from a real operation, not yet merged
	gWaiting                // disabled by a model (mutex, once, cond, waitgroup, end of test)
	gDone                   // exited
	gDormant                // created for a timer callback that has not fired
)

var stateNames = [...]string{"runnable", "blocked", "runnable", "waiting", "exited", "timer not fired"}

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
	isTime  bool   // the pseudo-goroutine that stands for "let time pass"
	inOp    bool   // counted in execution.inOp
}

// execution is the state of one controlled run of a test body. All fields
// are owned by the token holder, except those under mu, which goroutines
// coming back from real blocking operations also touch.
type execution struct {
	index    int
	strategy Strategy
	rec      *recorder

	gs      []*G
	timeG   *G
	enabled []*G // sorted by id; rebuilt when dirty
	dirty   bool
	step    int // scheduling points so far
	seq     int // decisions so far
	maxStep int

	lazyTime bool // time passes only when no goroutine can run (-early-timers=false)
	yielding bool // the current point is a runtime.Gosched
	// foreignChan: the execution used a channel made outside it, so
	// goroutines outside the bubble may be part of its communication.
	foreignChan bool
	early       time.Duration
	earlyN      int

	curGP    uintptr // runtime id of the token holder
	holder   *G
	inOp     int  // goroutines in real operations
	mayWake  bool // a real operation since the last settle may have woken one
	timers   timerSet
	models   map[any]any
	abortCh  chan struct{}
	bodyDone bool

	mu       sync.Mutex
	idle     bool // nobody holds the token
	deciding bool // a goroutine is deciding from the idle state
	pending  []*G // returned from real operations, not yet merged

	failure  *Failure
	messages []message
	aborted  atomic.Bool
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
	gp := getg()
	if gp == e.curGP {
		return e, e.holder
	}
	return e.stranger(gp)
}

// stranger handles a goroutine that reaches a scheduling point without
// holding the token: one started by code gopct does not instrument, or a
// goroutine of an aborted execution. It runs natively.
func (e *execution) stranger(gp uintptr) (*execution, *G) {
	return nil, nil
}

func controlled() bool {
	e, _ := self()
	return e != nil
}

func newExecution(index int, s Strategy, maxStep int) *execution {
	e := &execution{
		index:    index,
		strategy: s,
		maxStep:  maxStep,
		models:   map[any]any{},
		rec:      newRecorder(),
	}
	e.timeG = &G{id: -1, isTime: true, state: gEnabled}
	return e
}

func (e *execution) newG(parent *G, site int) *G {
	g := &G{id: len(e.gs), parent: -1, created: site, wake: make(chan struct{}, 1), site: site}
	if parent != nil {
		g.parent = parent.id
	}
	e.gs = append(e.gs, g)
	e.dirty = true
	return g
}

// enabledSet returns the goroutines that may run next, sorted by id, with the
// time pseudo-goroutine last when a timer is pending.
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
	g.state = s
	e.dirty = true
}

// choices returns the enabled set plus the time pseudo-goroutine when time
// can usefully pass.
func (e *execution) choices() []*G {
	en := e.enabledSet()
	if (len(en) == 0 || !e.lazyTime) && e.timers.pending(now) {
		out := make([]*G, len(en), len(en)+1)
		copy(out, en)
		return append(out, e.timeG)
	}
	return en
}

// point is a scheduling point: g, the token holder, is about to perform the
// operation at site. The strategy decides who runs next.
func (e *execution) point(g *G, site int) {
	g.site = site
	e.step++
	if e.step&1023 == 0 {
		progress.Add(1)
	}
	if e.mayWake {
		e.settle()
	}
	if e.step > e.maxStep {
		e.failStepLimit(site)
	}
	if e.aborted.Load() {
		e.park(g)
	}
	e.decide(g, true)
}

// decide asks the strategy for the next goroutine and hands the token over.
// cur is the deciding goroutine; canContinue says whether it is enabled.
func (e *execution) decide(cur *G, canContinue bool) {
	ch := e.choices()
	if len(ch) == 0 {
		e.goIdle(cur)
		return
	}
	next := e.strategy.Next(e.moment(), cur, ch)
	if next == cur && canContinue {
		return
	}
	e.rec.switchTo(e, cur, next, canContinue)
	if next.isTime {
		e.passTime(cur)
		return
	}
	e.handTo(next, false)
	if cur != nil && canContinue {
		e.park(cur)
	}
}

// handTo gives the token to next and wakes it.
func (e *execution) handTo(next *G, settle bool) {
	e.mu.Lock()
	e.holder = next
	e.curGP = next.gp
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
	e.curGP = g.gp
	if g.settle {
		g.settle = false
		e.settle()
	}
}

// goIdle leaves the token with nobody: every goroutine is blocked. Time may
// pass (the bubble fires the next timer) or the bubble reports a deadlock.
func (e *execution) goIdle(cur *G) {
	e.mu.Lock()
	e.idle = true
	e.holder = nil
	e.curGP = 0
	e.mu.Unlock()
}

// settle waits until every goroutine woken by a real operation has come back
// to the scheduler, then merges them in id order. This makes the enabled set
// the same in every run.
func (e *execution) settle() {
	if e.inOp > 0 || len(e.pending) > 0 {
		synctest.Wait()
	}
	e.merge()
	e.mayWake = false
}

func (e *execution) merge() {
	e.mu.Lock()
	p := e.pending
	e.pending = nil
	e.mu.Unlock()
	sort.Slice(p, func(i, j int) bool { return p[i].id < p[j].id })
	for _, g := range p {
		if g.inOp {
			g.inOp = false
			e.inOp--
		}
		e.setState(g, gEnabled)
	}
}

// blockIn runs a real blocking operation: the token goes to another
// goroutine first, which settles before running, so that op has blocked by
// the time anyone else acts.
func (e *execution) blockIn(g *G, what string, op func()) {
	e.setState(g, gInOp)
	g.waitFor = what
	g.inOp = true
	e.inOp++
	e.handOff(g, true)
	op()
	e.comeBack(g)
}

// handOff passes the token from g, which cannot continue, to the strategy's
// choice; with nobody to run, the scheduler goes idle.
func (e *execution) handOff(g *G, settle bool) {
	if e.mayWake {
		e.settle()
	}
	ch := e.choices()
	if len(ch) == 0 && e.inOp > 0 {
		// Code gopct does not see (a context's cancel function closing
		// its Done channel) may have woken a goroutine blocked in a real
		// operation: look before declaring that nobody can run.
		e.settle()
		ch = e.choices()
	}
	if len(ch) == 0 {
		e.goIdle(g)
		return
	}
	next := e.strategy.Next(e.moment(), g, ch)
	e.rec.switchTo(e, g, next, false)
	if next.isTime {
		e.passTime(nil)
		return
	}
	e.handTo(next, settle)
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
		e.curGP = getg()
		e.holder = g
	}
	synctest.Wait()
	e.merge()
	e.mu.Lock()
	e.deciding = false
	e.idle = false
	e.mu.Unlock()
	e.mayWake = false
	e.step++
	if e.step > e.maxStep {
		e.failStepLimit(-1)
		if g != nil {
			e.park(g)
		}
		return
	}
	ch := e.choices()
	if len(ch) == 0 {
		e.goIdle(g)
		if g != nil {
			e.park(g)
		}
		return
	}
	next := e.strategy.Next(e.moment(), nil, ch)
	e.rec.switchTo(e, nil, next, false)
	if next.isTime {
		e.passTime(g)
		return
	}
	if next == g {
		e.handToSelf(g)
		return
	}
	e.handTo(next, false)
	if g != nil {
		e.park(g)
	}
}

func (e *execution) handToSelf(g *G) {
	e.mu.Lock()
	e.holder = g
	e.curGP = getg()
	e.mu.Unlock()
}

// passTime lets the fake clock run to the next pending timer: nobody holds
// the token, a clock goroutine wakes at the deadline and decides. cur, if
// not nil, is enabled and parks meanwhile.
func (e *execution) passTime(cur *G) {
	d := e.timers.next(now()).Sub(now())
	if len(e.enabledSet()) > 0 {
		// A timer fires while goroutines could still run: the schedule
		// assumes they were delayed that long. Reports say so.
		e.early += d
		e.earlyN++
	}
	e.mu.Lock()
	e.idle = true
	e.holder = nil
	e.curGP = 0
	e.mu.Unlock()
	time.AfterFunc(d, e.clockTick)
	if cur != nil {
		e.park(cur)
	}
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
	e.decideFromIdle(nil)
}

// fail records the first failure and aborts the execution: every managed
// goroutine stays blocked, and the runner tears the bubble down.
func (e *execution) fail(f *Failure) {
	e.mu.Lock()
	if e.failure == nil {
		f.Step = e.step
		e.failure = f
	}
	e.mu.Unlock()
	e.aborted.Store(true)
}

// moment numbers a new decision.
func (e *execution) moment() Moment {
	e.seq++
	return Moment{Step: e.step, Seq: e.seq, Yield: e.yielding}
}

// failStepLimit abandons an execution that ran past -max-steps (not a bug:
// the campaign counts it and goes on).
func (e *execution) failStepLimit(site int) {
	e.fail(&Failure{Kind: "steplimit", Message: "execution exceeded the step limit", Site: site})
}

func now() time.Time { return time.Now() }
