package pct

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// progress is bumped as executions advance; the stall watchdog reads it.
var progress atomic.Int64

func runTest(t *testing.T, body func(*testing.T)) {
	cfg, err := loadConfig()
	if err != nil {
		t.Fatalf("gopct: %v", err)
	}
	if cfg == nil || cfg.Test != t.Name() {
		body(t)
		return
	}
	r := &runner{cfg: cfg, t: t, start: time.Now()}
	r.run(body)
}

// Profiling starts at init when the campaign profiles, so that package-level
// initialisers (which run before any test) register their allocations.
func init() {
	if c, err := loadConfig(); err == nil && c != nil && (c.Profile || c.Loop > 0) {
		profiling = c.Profile
		setLoopBound(c.Loop, nil)
	}
}

// The worker's configuration is read once, at init, and the variable is
// then removed from the process's environment: a test that re-runs its own
// binary (os.Args[0] with an environment variable of its own, as x/sync's
// singleflight and groupcache do) starts a plain test binary, not a second
// worker writing into this one's records and crash log.
var (
	configOnce sync.Once
	config     *Config
	configErr  error
)

func loadConfig() (*Config, error) {
	configOnce.Do(func() {
		config, configErr = readConfig()
		os.Unsetenv("GOPCT_CONFIG")
	})
	return config, configErr
}

func readConfig() (*Config, error) {
	path := os.Getenv("GOPCT_CONFIG")
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("bad config %s: %v", path, err)
	}
	if c.Version != SchemaVersion {
		return nil, fmt.Errorf("config %s has schema version %d, this runtime reads %d", path, c.Version, SchemaVersion)
	}
	if c.Workers < 1 {
		c.Workers = 1
	}
	if c.Stall <= 0 {
		c.Stall = 20
	}
	return &c, nil
}

type runner struct {
	cfg   *Config
	t     *testing.T
	out   *os.File
	start time.Time
	// hosted: the body is the instrumented test function, which starts
	// and ends itself (Redirect, BodyEnd) under testing's tRunner.
	hosted bool

	mu       sync.Mutex  // emit, and the counts the deadline reads
	finished bool        // the last record is written: emit no more
	counts   Record      // executions so far, for a record at the deadline
	waiting  atomic.Bool // a shared queue's worker waits for its next item
}

func (r *runner) newStrategy() (Strategy, *replayStrategy, error) {
	if r.cfg.Epoch != 0 {
		useEpoch(r.cfg.Epoch) // a replay, or a bug's execution run again alone
	}
	if r.cfg.Spec.Name != "replay" {
		s, err := r.strategyFor(r.cfg.Spec)
		return s, nil, err
	}
	sched, err := DecodeSchedule(r.cfg.Replay)
	if err != nil {
		return nil, nil, fmt.Errorf("bad replay schedule: %v", err)
	}
	rs := newReplay(sched)
	return rs, rs, nil
}

// strategyFor makes the strategy of a hunt.
func (r *runner) strategyFor(spec Spec) (Strategy, error) {
	if spec.Name == "pctvb" {
		if spec.D < 1 || len(r.cfg.VarSites) == 0 {
			return nil, fmt.Errorf("pctvb needs d >= 1 and tracked variables")
		}
		return newPCTVB(spec, r.cfg.VarSites), nil
	}
	return NewStrategy(spec)
}

func (r *runner) run(body func(*testing.T)) {
	if r.cfg.Out != "" {
		f, err := os.OpenFile(r.cfg.Out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			r.t.Fatalf("gopct: %v", err)
		}
		r.out = f
		defer f.Close()
	}
	strat, replay, err := r.newStrategy()
	spec := r.cfg.Spec
	if err != nil {
		r.emit(Record{Type: RecError, Message: err.Error()})
		return
	}
	activateMemory(r.cfg.Sites, r.cfg.Vars)
	for _, f := range warmUps {
		f() // outside every bubble: the state they make belongs to none
	}
	subFilters, err = compileSubFilter(r.cfg.Sub)
	if err != nil {
		r.emit(Record{Type: RecError, Message: "bad subtest filter: " + err.Error()})
		return
	}
	profiling = r.cfg.Profile
	setLoopBound(r.cfg.Loop, r.cfg.Objects)
	fingerprinting = !r.cfg.NoFingerprint
	// One goroutine runs at a time: with one P a handoff is a direct
	// switch instead of a wakeup of another OS thread.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if r.cfg.Race && r.cfg.AllBugs {
		// A freed object's address reused by a new one inherits its
		// access history (a false race). A race found after a collection
		// is confirmed by a rerun without one (racestack.go), which a
		// worker that goes on after bugs cannot do: no collection here
		// (past the limit the collector runs anyway).
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(2 << 30))
	}
	stop := r.watchdog()
	defer close(stop)
	defer r.stopAtDeadline(spec)()
	crash := openCrashLog(r.cfg.CrashLog)
	execs, maxSteps, abandoned := 0, 0, 0
	var held time.Duration // HeldTimer
	var heldNative string
	var unmanaged unmanagedTally
	limits := &stepLimits{fixed: r.cfg.MaxSteps}
	complete := false
	var bug *BugReport
	priorDiverged, err := r.rerunPrior(body, limits, crash)
	if err != nil {
		r.emit(Record{Type: RecError, Message: err.Error()})
		return
	}
	if r.cfg.Queue {
		r.serveQueue(strat, limits, crash, body)
		return
	}
	first := r.cfg.firstIndex()
	for i := first; i < r.cfg.Iters; i = r.cfg.nextIndex(i) {
		if r.cfg.Deadline != 0 && time.Now().UnixNano() > r.cfg.Deadline {
			break
		}
		if r.cfg.chunkStart(i) && i != first {
			strat, _, _ = r.newStrategy() // built once already: cannot fail
			limits = &stepLimits{fixed: r.cfg.MaxSteps}
		}
		if !strat.Begin(i, NewRand(execSeed(r.cfg.Seed, i))) {
			complete = true // the strategy has explored everything it offers
			break
		}
		e := r.execute(i, strat, limits, crash, body)
		execs++
		maxSteps = max(maxSteps, e.step)
		f := e.failure
		if f != nil && !f.Kind.IsBug() && !f.Kind.IsEnvironment() {
			abandoned++
			held = max(held, f.HeldTimer)
			if heldNative == "" {
				heldNative = f.HeldNative
			}
		}
		unmanaged.add(e)
		r.count(execs, abandoned, maxSteps, unmanaged)
		r.countBounds(strat)
		switch {
		case f == nil:
		case f.Kind.IsEnvironment():
			r.emit(Record{Type: RecError, Executions: execs, Message: f.Message})
			return
		case !f.Kind.IsBug(): // abandoned: counted above
		default:
			bug = e.report()
			if f.Kind == FailRace && !r.cfg.Profile && !r.cfg.AllBugs {
				// Not when the worker goes on: the rerun would change the
				// package state later executions start from.
				if bug = r.confirmRace(i, e, bug, limits, execs, body); bug == nil {
					continue // a collection may have reused memory: not confirmed
				}
			}
			if r.cfg.Profile {
				continue // profiling observes; bugs are for hunts
			}
			if replay == nil {
				r.emit(Record{Type: RecBug, Executions: execs, Bug: bug, Spec: &spec})
			}
		}
		if replay != nil || (bug != nil && !r.cfg.Profile && !r.cfg.AllBugs) {
			break
		}
	}
	rec := Record{Type: RecDone, Executions: execs, Finished: execs - abandoned, MaxSteps: maxSteps,
		Abandoned: abandoned, Spec: &spec, Complete: complete, Unmanaged: unmanaged.executions, UnmanagedAt: unmanaged.at,
		Tallied: tallied, HeldTimer: held, HeldNative: heldNative}
	if b, ok := strat.(interface{ Stats() []BoundStats }); ok {
		rec.Bounds = b.Stats()
	}
	rec.Classes = coverageClasses()
	if replay != nil {
		rec.Diverged = cmp.Or(replay.diverged, priorDiverged)
		rec.Outcome = bug
	}
	if r.cfg.Profile {
		rec.Profile = prof.observations(execs)
	}
	r.emit(rec)
}

// randIndex is the execution index that seeds execution i's math/rand
// sources: 0 for every execution with RandFixed.
func (c *Config) randIndex(i int) int {
	if c.RandFixed {
		return 0
	}
	return i
}

// firstIndex is this worker's first execution.
func (c *Config) firstIndex() int {
	if c.Chunk <= 0 {
		return c.First + c.Worker
	}
	return c.skipDone(c.First + c.Worker*c.Chunk)
}

// nextIndex is this worker's execution after i: the next in its chunk, or
// the start of its next chunk not done already.
func (c *Config) nextIndex(i int) int {
	if c.Chunk <= 0 {
		return i + c.Workers
	}
	i++
	if c.chunkStart(i) {
		i = c.skipDone(i + (c.Workers-1)*c.Chunk)
	}
	return i
}

// skipDone moves past this worker's chunks that Done lists, from the chunk
// starting at i.
func (c *Config) skipDone(i int) int {
	for len(c.Done) > 0 && slices.Contains(c.Done, (i-c.First)/c.Chunk) {
		i += c.Workers * c.Chunk
	}
	return i
}

func (c *Config) chunkStart(i int) bool { return c.Chunk > 0 && (i-c.First)%c.Chunk == 0 }

// workerOf is the worker that runs execution i.
func (c *Config) workerOf(i int) int {
	n := i - c.First
	if c.Chunk > 0 {
		n /= c.Chunk
	}
	return n % max(1, c.Workers)
}

// RanBefore says whether the worker process that runs execution i has run
// other executions before it (whose package state i may start from).
func (c Config) RanBefore(i int) bool {
	c.Worker = c.workerOf(i)
	return c.firstIndex() < i
}

// priorHunt is the hunt's configuration of the worker whose executions a
// replay reruns before the recorded one.
func (c *Config) priorHunt() *Config {
	h := &Config{First: c.PriorFirst, Workers: c.PriorStride, Chunk: c.PriorChunk, Done: c.PriorDone}
	h.Worker = h.workerOf(c.First)
	return h
}

// execute runs execution i, which strat has begun, and ends it for strat.
func (r *runner) execute(i int, strat Strategy, limits *stepLimits, crash *crashLog, body func(*testing.T)) *execution {
	resetAllocIndex()
	member := active(strat) // what decides this execution (a portfolio's member); strat learns from it
	e := newExecution(i, member, limits)
	e.timeout = time.Duration(r.cfg.Timeout)
	e.randSeed = execSeed(r.cfg.Seed, r.cfg.randIndex(i)) ^ randSalt
	seedCrypto(r.t, e.randSeed)
	e.lazyTime = r.cfg.LazyTime
	e.maxDelay = time.Duration(r.cfg.MaxDelay)
	e.epoch = processEpoch()
	e.rec.crash = crash
	if rs, ok := member.(*replayStrategy); ok {
		e.rec.follow = rs // the recorded execution: check every step
	}
	e.rec.walk = walkerOf(member)
	e.observe(r.cfg, member)
	crash.begin(i, e.epoch)
	r.runOne(e, body)
	e.closeTally() // the last holder's batch, if nothing closed it (it blocked in code gopct does not see)
	if f := e.failure; f != nil && (f.Kind == FailFinalizable || f.Kind == FailDaemons) {
		e.failure = nil // a finished run: leftovers a finalizer may stop, or the process's, are no leak
		if e.bodyFailed {
			e.failure = e.testFailure() // but the test had failed (finishBody)
		}
	}
	e.finalizerWait()
	e.memStatsFailure()
	if e.failure != nil {
		e.noteLeftLocked()
	}
	if e.narrowSites != nil {
		e.narrowSites() // the execution ended inside a livelock window
	}
	e.finishObservers()
	// The trail shares trailBuf with the next execution: encoded by this
	// one's report, before the next begins.
	e.rec.sched.Steps, e.rec.sched.FP, e.rec.sched.Trail = e.step, e.fingerprint(), e.rec.recorded()
	e.rec.sched.Draws = e.drawsFingerprint()
	if w := e.rec.walk; w != nil {
		e.rec.sched.Walk = true
		e.rec.sched.WalkSeed, e.rec.sched.WalkDraws = w.walked()
	}
	strat.End(e.outcome())
	progress.Add(1)
	if f := e.failure; f == nil || f.Kind.IsBug() {
		limits.finished(e.step)
	}
	return e
}

// rerunPrior runs again, before a replayed execution, the executions that
// the hunt's worker ran before it in the same process (cfg.Prior: the
// strategy; the hunt's worker sequence, Config.priorHunt), so that
// package-level state carried from one execution to the next (a map filled
// lazily, a counter, a cache) is what the recorded execution started from,
// and the step limit is calibrated as it was. They are deterministic, like
// the recorded one. Each passed in the hunt (a worker stops at its first
// bug): one that fails now means the replay cannot rebuild that state, a
// divergence.
func (r *runner) rerunPrior(body func(*testing.T), limits *stepLimits, crash *crashLog) (string, error) {
	if r.cfg.Prior == nil || r.cfg.PriorStride < 1 {
		return "", nil
	}
	hunt := r.cfg.priorHunt()
	strat, err := r.strategyFor(*r.cfg.Prior)
	if err != nil {
		return "", err
	}
	diverged := ""
	first := hunt.firstIndex()
	for i := first; i < r.cfg.First; i = hunt.nextIndex(i) {
		if hunt.chunkStart(i) && i != first { // as the hunt's worker did
			strat, _ = r.strategyFor(*r.cfg.Prior)
			*limits = stepLimits{fixed: r.cfg.MaxSteps}
		}
		if !strat.Begin(i, NewRand(execSeed(r.cfg.Seed, i))) {
			break
		}
		e := r.rebuild(i, strat, limits, crash, body)
		if f := e.failure; f != nil && (f.Kind.IsBug() || f.Kind.IsEnvironment()) && diverged == "" {
			diverged = sprintf("execution %d, run again before the recorded one to rebuild the package state it started from, failed (%s: %s); in the hunt it passed",
				i, f.Kind, f.Message)
		}
	}
	if hunt.chunkStart(r.cfg.First) {
		*limits = stepLimits{fixed: r.cfg.MaxSteps}
	}
	return diverged, nil
}

// rebuild runs execution i of rerunPrior with the collector off: a
// collection during it may reuse a freed object's address for a new one,
// and the race detector then takes accesses to two objects for a race (the
// hunt confirms such races by a rerun without collection before reporting
// them, racestack.go, but here any failure is a divergence: GoKer's
// etcd7492, istio18454 and serving2137 with all their copies diverged so,
// on races between goroutines of two copies that share nothing). The
// garbage of one execution is held until it ends, as in confirmRace's rerun.
func (r *runner) rebuild(i int, strat Strategy, limits *stepLimits, crash *crashLog, body func(*testing.T)) *execution {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return r.execute(i, strat, limits, crash, body)
}

// finalizerWait turns the failure of an execution that set finalizers and
// then called runtime.GC, waiting for them to run, into an environment
// error: gopct does not register finalizers inside an execution (they would
// run on the runtime's finalizer goroutine, outside the bubble), so a test
// that counts on them fails in every execution, while under go test they
// run right after the collection (bytedance/gopkg's TestChannelGCClose, whose
// channels' finalizers stop their goroutines: "expected 2, got 4", a false
// report). A data race or a fatal error does not depend on them.
func (e *execution) finalizerWait() {
	f := e.failure
	if f == nil || !e.collected || f.Kind == FailRace || f.Kind == FailFatal || !f.Kind.IsBug() {
		return
	}
	e.failure = &Failure{Kind: FailUnsupported, Site: f.Site, Goroutine: f.Goroutine, Step: f.Step, Message: fmt.Sprintf(
		"the test failed (%s: %s) after it called runtime.GC with finalizers set: it waits for them to run, "+
			"and gopct does not run finalizers inside an execution (they would run outside the test's synctest bubble)",
		f.Kind, strings.SplitN(f.Message, "\n", 2)[0])}
}

// outcome summarises a finished execution for its strategy.
func (e *execution) outcome() ExecOutcome {
	o := ExecOutcome{Steps: e.step, Goroutines: len(e.gs), FP: e.fingerprint(), Draws: e.drawsFingerprint()}
	if e.failure != nil {
		o.Failed, o.Kind = true, e.failure.Kind
	}
	return o
}

// count notes the executions so far, for a record at the deadline.
func (r *runner) count(execs, abandoned, maxSteps int, u unmanagedTally) {
	r.mu.Lock()
	r.counts.Executions, r.counts.Finished, r.counts.Abandoned, r.counts.MaxSteps = execs, execs-abandoned, abandoned, maxSteps
	r.counts.Unmanaged, r.counts.UnmanagedAt = u.executions, u.at
	r.mu.Unlock()
}

// countBounds keeps a copy of an exhaustive search's per-bound counts for
// the record at the deadline (the table explore prints).
func (r *runner) countBounds(strat Strategy) {
	if b, ok := strat.(interface{ Stats() []BoundStats }); ok {
		r.mu.Lock()
		r.counts.Bounds = append([]BoundStats(nil), b.Stats()...) // a new slice: the deadline record may be marshalled meanwhile
		r.mu.Unlock()
	}
}

// stopAtDeadline ends the process at the hunt's deadline even in the middle
// of an execution (a slow test's execution may take seconds; -budget must
// hold within 5%): it writes the final record with the executions finished
// so far and exits. The execution in progress is dropped, as if not begun.
// It returns the function that disarms it.
func (r *runner) stopAtDeadline(spec Spec) func() {
	if r.cfg.Deadline == 0 || r.cfg.Profile || r.cfg.Replay != "" {
		return func() {}
	}
	t := time.AfterFunc(time.Until(time.Unix(0, r.cfg.Deadline)), func() {
		r.mu.Lock()
		if r.finished {
			r.mu.Unlock()
			return
		}
		rec := r.counts
		r.mu.Unlock()
		rec.Type, rec.Spec = RecDone, &spec
		r.emit(rec)
		os.Exit(0)
	})
	return func() { t.Stop() }
}

func (r *runner) emit(rec Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return
	}
	if rec.Type == RecDone || rec.Type == RecError {
		r.finished = true
	}
	rec.Version = SchemaVersion
	rec.Worker = r.cfg.Worker
	rec.Elapsed = time.Since(r.start)
	if r.out != nil {
		b, _ := json.Marshal(rec)
		r.out.Write(append(b, '\n'))
	}
}

// runOne runs one execution in a fresh bubble. synctest.Test fails the
// outer test with FailNow when the bubble's test fails, so it runs on its
// own goroutine.
func (r *runner) runOne(e *execution, body func(*testing.T)) {
	done := make(chan struct{})
	var bubblePanic any
	current.Store(e)
	go func() {
		defer close(done)
		defer func() { bubblePanic = recover() }()
		if r.hosted {
			e.hosted = true
			synctest.Test(r.t, body) // the test function itself (Redirect)
		} else {
			synctest.Test(r.t, func(t *testing.T) { e.runBody(t, body) })
		}
	}()
	<-done
	current.Store(nil)
	if bubblePanic != nil && e.failure == nil {
		e.classifyBubblePanic(bubblePanic)
	}
}

// classifyBubblePanic turns the bubble's "all goroutines blocked" into a
// deadlock, or a leak when the test function had already returned.
func (e *execution) classifyBubblePanic(p any) {
	e.closeTally() // every goroutine of the bubble is blocked
	e.placeNatives()
	var nativeSignal *Failure // a goroutine handed off in os/signal (native.go)
	if e.nativeN.Load() > 0 {
		nativeSignal = e.signalStuck()
	}
	msg := fmt.Sprint(p)
	switch {
	case !strings.Contains(msg, "deadlock"):
		e.failure = &Failure{Kind: FailPanic, Message: "gopct internal: " + msg, Site: -1}
	case e.foreignChan && len(e.masked) > 0 && outsideGs.Load() == 0:
		// No goroutine outside the bubble can serve the channel, but
		// two of the test's meeting on it cannot either (foreign.go).
		e.failure = &Failure{Kind: FailStuck, Site: -1, Message: e.blockedSummary("all goroutines of the test are blocked, " +
			"some on a channel made outside it (a package-level variable or init), which gopct waits on " +
			"without the channel: two goroutines cannot meet on it (an unbuffered send and receive), " +
			"nor can code gopct does not instrument send on it; make the channel inside the test;")}
	case e.foreignChan:
		e.failure = &Failure{Kind: FailStuck, Site: -1, Message: "all goroutines of the test are blocked, " +
			"and the test communicates through a channel made outside it (a package-level variable or init): " +
			"goroutines outside the test's bubble take part, and gopct cannot schedule them; " +
			"make the channel (and the goroutines serving it) inside the test"}
	case nativeSignal != nil:
		e.failure = nativeSignal
	case e.bodyDone && e.othersDone():
		// The test function, its cleanups and every goroutine gopct
		// manages are done: what keeps the bubble from ending is a
		// goroutine that code gopct does not instrument started and left
		// blocked (database/sql's connectionOpener, for a DB the test
		// never closes). Before, the token holder's case below said that
		// g0 waited inside such code for a goroutine waiting for its turn:
		// untrue, and an exit 2 (go-sqlmock, sweep fresh33).
		// Only a leak gopct can vouch for is reported (unmanagedLeftovers);
		// otherwise exit 2 says what is left (juju/clock's gocheck suite,
		// sweep fresh33).
		if left, sure := e.unmanagedLeftovers(); sure {
			e.settleSignals() // as for the leaks below
			e.failure = e.leak(&Failure{Kind: FailLeak, Site: -1, Message: "goroutine leak: the test returned and its " +
				"goroutines finished, but goroutines that code gopct does not instrument started stay blocked for ever: " + left})
		} else {
			if left == "" {
				left = "none found in the stack dump"
			}
			e.failure = &Failure{Kind: FailStuck, Site: -1, Message: "the test returned and its goroutines finished, " +
				"but its testing/synctest bubble cannot end: goroutines gopct does not manage stay blocked in it (" + left +
				"), and gopct cannot tell whether they would go on outside it " + e.stuckAdvice()}
		}
	case !e.idle && e.holder != nil:
		// Not a deadlock of the program: the token holder blocked inside
		// code gopct does not instrument, waiting for a goroutine that
		// waited for the token.
		if f := e.signalStuck(); f != nil {
			e.failure = f // os/signal: no -deps can help (signals.go)
			break
		}
		e.failure = &Failure{Kind: FailStuck, Site: e.holder.site, Message: fmt.Sprintf(
			"%s blocked inside code gopct does not instrument (standard library or another module) after %s, "+
				"waiting for a goroutine that was waiting for its turn; gopct cannot schedule through that code %s",
			gname(e.holder.id), posOf(e.holder), e.stuckAdvice())}
	case e.bodyDone && e.finalizers > 0:
		e.failure = leftoversMayBeFinalized()
	case e.bodyDone:
		e.settleSignals()
		e.failure = e.leak(&Failure{Kind: FailLeak, Message: e.blockedSummary("goroutine leak: the test returned while"), Site: -1})
	default:
		e.settleSignals()
		e.failure = &Failure{Kind: FailDeadlock, Message: e.blockedSummary("deadlock: all goroutines are blocked;"), Site: -1}
	}
	e.failure.Step = e.step
}

// unmanagedLeftovers describes the goroutines of the bubble that code gopct
// does not instrument started and that are blocked for ever once the test
// and its managed goroutines are done: a leak, as go.uber.org/goleak would
// report it (testing/synctest does not let a test end with them). It says
// false, with the goroutines it found, when it cannot vouch for a leak:
// none was found, or one of them is inside instrumented code (gopkg.in/
// check.v1 runs juju/clock's suite methods on goroutines of its own: gopct
// handles their operations outside its schedule, and whether they would
// go on natively is not known).
func (e *execution) unmanagedLeftovers() (string, bool) {
	var parts []string
	sure := true
	for _, block := range splitDump(fullDump()) {
		g := parseGoroutine(block)
		if bubbleOf(g.header) != e.bubble || g.bubbleHost() || managedDump(g) ||
			g.created != nil && strings.HasPrefix(g.created.fn, "created by "+rtPrefix) {
			continue
		}
		in := ""
		for _, f := range g.frames {
			if !f.rt() && !strings.HasPrefix(f.fn, "runtime.") && !strings.HasPrefix(f.fn, "internal/") {
				in = f.name() + " (" + filepath.Base(trimLoc(f.loc)) + ")"
				break
			}
		}
		if in == "" {
			continue
		}
		if g.created != nil {
			by := strings.TrimPrefix(g.created.fn, "created by ")
			by, _, _ = strings.Cut(by, " in goroutine ")
			in += ", started by " + by + " (" + filepath.Base(trimLoc(g.created.loc)) + ")"
		}
		sure = sure && !g.hasRT
		parts = append(parts, in)
	}
	sort.Strings(parts)
	return strings.Join(parts, "; "), sure && len(parts) > 0
}

// managedDump says whether a dump's goroutine runs a managed body.
func managedDump(g goroutine) bool {
	for _, f := range g.frames {
		switch f.name() {
		case rtPrefix + "(*execution).runG", rtPrefix + "(*execution).runBody":
			return true
		}
	}
	return false
}

// stuckAdvice completes the message of a token holder blocked inside code
// gopct does not instrument. When goroutines gopct does not manage ran the
// test's code, they are the likely other side (net/http's server runs each
// handler on one, and a handler that waits for the test's goroutines
// cannot be scheduled against them), which -deps cannot change for the
// standard library's; the code may also be another module's. The position
// is the file's base name: which unmanaged goroutine comes first is the
// native scheduler's choice, and the message should not name directories.
func (e *execution) stuckAdvice() string {
	deps := "when it is another module's, one that makes goroutines wait on its own locks or channels, " +
		"such as a mock clock, instrument it too: -deps auto,MODULE"
	if e.unmanaged.Load() == 0 {
		return "(" + deps + ")"
	}
	at := ""
	if p := e.unmanagedAt.Load(); p != nil && *p != "" {
		at = " (first at " + filepath.Base(*p) + ")"
	}
	return "(in this execution goroutines gopct does not manage ran the test's code" + at + ": goroutines " +
		"started by code gopct does not instrument, such as the handlers of net/http's server " +
		"(httptest.NewServer), run it natively, outside gopct's schedule, so gopct cannot hunt a test " +
		"in which such a goroutine and the test's own wait for each other; " + deps + ")"
}

func (e *execution) blockedSummary(prefix string) string {
	var gs stuckGroups
	for _, g := range e.gs {
		if g.state == gInOp || g.state == gWaiting {
			if (g.id == 0 || g.daemon) && e.bodyDone {
				continue // the test's goroutine, and the process's, are no leak
			}
			gs.add(g.id, g.waitFor)
		}
	}
	if gs.len() == 0 {
		return prefix + " goroutines are blocked"
	}
	return prefix + " " + gs.String()
}

// runBody runs the test function as goroutine g0 of the execution, then
// waits, still under control, for the goroutines it started: a body that
// RunTest was given. An instrumented test function runs itself instead
// (hosted: Redirect starts it, BodyEnd ends it), directly under testing's
// tRunner, as under go test.
func (e *execution) runBody(t *testing.T, body func(*testing.T)) {
	e.startBody(t)
	defer func() { e.endBody(recover()) }()
	body(t)
	e.bodyNormal = true
}

// startBody makes the calling goroutine g0 of the execution, the holder
// of the token, at the start of the test function.
func (e *execution) startBody(t *testing.T) {
	e.abortCh = make(chan struct{}) // made in the bubble, so blocking on it is durable
	e.waitSem = make(chan struct{}, 1)
	e.bubble = currentBubble()
	startClock(e.epoch)
	e.armGuard()
	e.clockStart = now()
	e.realStart = realNow()
	e.markClock()
	g0 := e.newG(nil, -1)
	g0.gp = getg()
	e.g0, e.bodyT = g0, t
	e.holder = g0
	e.curGP.Store(g0.gp)
	// Registered first, so it runs last: after the test's own cleanups, and
	// after t.Context() has been cancelled (the testing package cancels it
	// just before the cleanups), as goroutines that watch it expect.
	t.Cleanup(func() { e.finishBody(g0, t, &e.bodyNormal) })
}

// endBody ends the test function, after its deferred calls, with what a
// deferred recover returned: a panic fails the execution; a test function
// that stopped early (t.FailNow, t.SkipNow) is reported now; one that
// returned runs its parallel subtests, as go test does once the function
// has returned, and before its cleanups.
func (e *execution) endBody(r any) {
	e.reclaim()
	if r != nil {
		e.failPanic(e.g0, r)
		return
	}
	if !e.bodyNormal {
		if !e.aborted.Load() {
			e.failFromTest(e.bodyT)
		}
		return
	}
	e.endTopFrame(e.g0)
}

// finishBody runs, under control, once the test function and its cleanups
// are done: it waits for the goroutines the test started, then checks the
// test's verdict.
func (e *execution) finishBody(g0 *G, t *testing.T, normal *bool) {
	e.reclaim()
	if !*normal || e.aborted.Load() {
		return
	}
	e.bodyDone = true
	e.bodyDoneAt = now()
	if t.Failed() {
		// go test's verdict is known once the function and its cleanups
		// are done: the test failed, whatever its goroutines do next. They
		// are still waited for, since one may crash the program (a send on
		// a closed channel after the test saw a wrong result: examples/
		// sendclosed); but if they leave one blocked for ever, the report
		// is the test's failure, not a leak that would hide its message
		// (t.Error in the function, or t.Fatal in a subtest whose parent
		// returns normally: every failed testify suite method that leaves
		// a goroutine behind, as go-commons-pool's
		// TestExceptionOnPassivateDuringReturnWithBorrowWaiting). See leak.
		e.bodyFailed = true
	}
	for !e.othersDone() {
		e.disable(g0, "test function returned; waiting for its goroutines")
	}
	e.stopGuard()
	if t.Failed() {
		e.failFromTest(t)
	} else if len(subFilters) > 0 && e.subSkipped && !e.subMatched {
		// -run's levels left every subtest out (a misspelt name, a suite
		// method the build leaves out). A test with no subtest is hunted:
		// -run 'TestA/Sub' names TestA_Timeout too, whose body go test runs
		// (hashicorp/yamux, sweep fresh32).
		e.fail(&Failure{Kind: FailSkip, Site: -1, Message: "no subtest of " + t.Name() +
			" matches -run's levels below it: there is nothing to hunt"})
	}
	e.curGP.Store(0)
}

// failFromTest records a failure reported through t.Error/t.Fatal.
func (e *execution) failFromTest(t *testing.T) {
	if !t.Failed() {
		if t.Skipped() {
			e.fail(&Failure{Kind: FailSkip, Site: -1, Message: t.Name() +
				" skips itself (t.Skip): there is nothing to hunt"})
		}
		return
	}
	e.fail(e.testFailure())
}

// testFailure is the failure of a test that failed: its first message, or
// gopct's limit when the message quotes the bubble's refusal.
func (e *execution) testFailure() *Failure {
	for _, m := range e.messages {
		// A refusal of the bubble that a library recovered and turned into
		// a test failure (testify's suite.Run: failOnPanic quotes the panic
		// of its t.Run in t.Errorf) is gopct's limit, not a bug.
		if refusal := bubbleRefusal(m.text); refusal != "" {
			return &Failure{Kind: FailUnsupported, Site: m.site, Goroutine: m.goroutine, Message: refusal +
				" (the panic was recovered and reported as a test failure): " + unsupportedHint}
		}
	}
	f := &Failure{Kind: FailTest, Message: "test failed", Site: -1}
	if len(e.messages) > 0 {
		// The first message that went to the test's own T failed it. A
		// message to another TestingT came first in testify's own tests
		// (sweep fresh34): EventuallyWithT's condition fails its CollectT
		// on a goroutine of its own, and Eventually(mockT, ...) fails a
		// recorder, while the test fails later at Len(t, mockT.errors, 2);
		// quoting the first message named the wrong assertion, line and
		// goroutine. Without a message to the test's T (a wrapper gopct
		// does not see through), the first message is the best guess.
		m := e.messages[0]
		for _, mm := range e.messages {
			if mm.toTest {
				m = mm
				break
			}
		}
		f.Message, f.Site, f.Goroutine, f.Where = m.text, m.site, m.goroutine, m.where
	}
	return f
}

// leak is the failure to report for the goroutine leak f: the test's own
// failure when the test had already failed as its function returned
// (finishBody), f otherwise.
func (e *execution) leak(f *Failure) *Failure {
	if e.bodyFailed {
		return e.testFailure()
	}
	if e.onlyDaemonsLeft() {
		return daemonsLeft()
	}
	return f
}

func (e *execution) report() *BugReport {
	f := e.failure
	b := &BugReport{
		Kind:        f.Kind,
		Message:     f.Message,
		Execution:   e.index,
		Preemptions: e.rec.preemptions,
		Steps:       e.step,
		Schedule:    e.rec.sched.Encode(),
		Trace:       e.rec.kept(),
		Untraced:    e.rec.untraced,
		TraceGap:    e.rec.traceGap(),
		Stack:       f.Stack,
		Key:         f.Key,
		EarlyTimers: e.earlyN,
		Delay:       e.early,
		Epoch:       e.epoch,
		InitLead:    initLead(e.epoch),
	}
	if f.Site >= 0 {
		b.At = sitePos(f.Site)
	}
	if f.Where != "" {
		b.At = f.Where
	}
	if f.Goroutine >= 0 && f.Kind != FailDeadlock && f.Kind != FailLeak {
		b.Goroutine = gname(f.Goroutine)
	}
	for _, m := range e.messages {
		b.Messages = append(b.Messages, fmt.Sprintf("%s: %s (%s)", sitePos(m.site), m.text, gname(m.goroutine)))
	}
	for _, g := range e.gs {
		gi := e.ginfo(g)
		if f.Where != "" && f.Goroutine == g.id {
			gi.At = f.Where // where it panicked, more precise than its last point
		}
		b.Goroutines = append(b.Goroutines, gi)
	}
	return b
}

func (e *execution) ginfo(g *G) GInfo {
	gi := GInfo{ID: gname(g.id), State: stateNames[g.state], At: posOf(g), Waiting: g.waitFor}
	if w := e.failWaits[g.id]; w != "" && g.state != gDone {
		gi.Waiting = w // as the failure found it, not as the execution's end left it
	}
	if g.state == gInOp && strings.HasPrefix(gi.Waiting, sleepingAt) {
		gi.State = "sleeping"
	}
	if g.parent >= 0 {
		gi.Parent = gname(g.parent)
		gi.Created = sitePos(g.created)
	}
	if g.id == 0 && g.state == gWaiting && e.bodyDone {
		gi.State = "returned"
	}
	return gi
}

// watchdog ends the process when no execution makes progress for
// cfg.Stall seconds of real time: some goroutine is blocked in an operation
// the bubble cannot see (I/O, a mutex in code gopct does not instrument, a
// channel made outside the test) or spins without a scheduling point.
func (r *runner) watchdog() chan struct{} {
	stop := make(chan struct{})
	go func() {
		last := progress.Load()
		clock := stallClock{last: time.Now()}
		tick := time.NewTicker(watchdogPeriod)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			p := progress.Load()
			// Waiting for a work item is not a stall.
			if clock.tick(time.Now(), p != last || r.waiting.Load()).Seconds() > r.cfg.Stall {
				r.stalled()
			}
			last = p
		}
	}()
	return stop
}

const watchdogPeriod = 200 * time.Millisecond

// stallClock measures how long a worker has gone without progress, in real
// time during which the process ran. A tick of the watchdog that comes much
// later than its period means that the process did not run in between (a
// machine loaded far beyond its cores; a stopped process): that gap counts
// as one period, so that a starved replay is not declared blocked (a
// blocked test leaves the watchdog running, and its ticks on time).
type stallClock struct {
	last time.Time     // the previous tick
	idle time.Duration // without progress so far
}

// tick notes a tick at now and returns the time without progress.
func (c *stallClock) tick(now time.Time, progressed bool) time.Duration {
	gap := now.Sub(c.last)
	c.last = now
	if gap > 5*watchdogPeriod {
		gap = watchdogPeriod // the process was not running
	}
	if progressed {
		c.idle = 0
	} else {
		c.idle += gap
	}
	return c.idle
}

func (r *runner) stalled() {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	msg := "no progress for " + fmt.Sprint(r.cfg.Stall) + "s"
	after := false
	if e := current.Load(); e != nil {
		msg += fmt.Sprintf(" in execution %d at step %d", e.index, e.step)
		after = e.index != r.cfg.firstIndex() || r.cfg.Prior != nil
	}
	r.emit(Record{Type: RecStall, AfterOthers: after, Message: msg + "; goroutines of the test:\n" + userPositions(string(buf))})
	os.Exit(3)
}

// userPositions summarises a goroutine dump: for each goroutine of the
// bubble, its state and the first frame in the user's code.
func userPositions(dump string) string {
	var out []string
	count := map[string]int{}
	for _, block := range strings.Split(dump, "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		if len(lines) < 3 || !strings.Contains(lines[0], "synctest bubble") {
			continue
		}
		state := lines[0]
		if i, j := strings.IndexByte(state, '['), strings.IndexByte(state, ','); i >= 0 && j > i {
			state = state[i+1 : j]
		}
		line := ""
		if pos := firstUserFrame(lines[1:]); pos != "" {
			line = "  " + state + " at " + pos
		} else if fn := ioEntry(state, lines[1:]); fn != "" {
			line = "  " + state + " in " + fn + " (outside the test's code)"
		}
		if line != "" {
			if count[line]++; count[line] == 1 {
				out = append(out, line)
			}
		}
	}
	if len(out) == 0 {
		return "  (no goroutine of the test is in the user's code)"
	}
	for i, line := range out {
		if n := count[line]; n > 1 {
			out[i] = fmt.Sprintf("%s (%d goroutines)", line, n)
		}
	}
	return strings.Join(out, "\n")
}

func firstUserFrame(frames []string) string {
	goroot := runtime.GOROOT()
	for i := 0; i+1 < len(frames); i += 2 {
		fn, loc := strings.TrimPrefix(frames[i], "created by "), trimLoc(frames[i+1])
		if strings.HasPrefix(fn, "gopct.invalid/rt.") || (goroot != "" && strings.HasPrefix(loc, goroot)) {
			continue
		}
		return loc
	}
	return ""
}

// ioEntry names the function a goroutine of the bubble runs when it waits
// in network or file I/O or a system call outside the user's code, such as
// the accept loop of an httptest server, or "". The bubble never counts such
// a goroutine as blocked, so gopct's waits for the bubble to settle last
// while it waits: it is the likeliest cause of the stall (melody's websocket
// tests: their goroutines blocked on channels, durably, but the server's
// accept loop was named nowhere).
func ioEntry(state string, frames []string) string {
	if !strings.HasPrefix(state, "IO wait") && !strings.HasPrefix(state, "syscall") {
		return ""
	}
	entry := ""
	for i := 0; i+1 < len(frames) && !strings.HasPrefix(frames[i], "created by "); i += 2 {
		entry = frames[i]
	}
	if j := strings.LastIndexByte(entry, '('); j > 0 && strings.HasSuffix(entry, ")") {
		entry = entry[:j]
	}
	return entry
}

// trimLoc is a dump's "\tfile:line +0x1f" line as "file:line".
func trimLoc(loc string) string {
	loc = strings.TrimSpace(loc)
	if i := strings.LastIndex(loc, " +0x"); i > 0 {
		loc = loc[:i]
	}
	return loc
}
