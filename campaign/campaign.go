package campaign

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gopct/gopct/instrument"
	"github.com/gopct/gopct/internal/usererr"
	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
	"github.com/gopct/gopct/vbound"
)

// Defaults every front end (hunt, bench, ci) uses, so that they explore the
// same schedules: the scheduling delay bound (docs/DESIGN.md, "Scheduling
// delays are bounded") and go test's default timeout.
const (
	DefaultMaxDelay = 100 * time.Millisecond
	DefaultTimeout  = 10 * time.Minute
)

// Plan is one hunt: which tests, which strategy, how much effort.
type Plan struct {
	Dir      string   // where the user ran gopct
	Package  string   // a package pattern or directory, e.g. ./bank
	Run      string   // regexp selecting tests (like go test -run)
	Spec     pct.Spec // the strategy and its parameters
	Iters    int      // executions per test
	Seed     uint64
	Budget   time.Duration // wall-clock budget for the whole hunt; 0: none
	Workers  int
	MaxSteps int           // steps after which an execution is given up; 0: calibrated
	Timeout  time.Duration // the test's timeout in fake time (go test -timeout); 0: none
	Stall    time.Duration // no progress for this long: the test blocks outside gopct's view
	Deps     []string      // dependency modules instrumented too (their goroutines become managed)
	TestArgs []string      // the test binary's arguments (-short, what follows -args): Binary.TestArgs
	// Name is what summaries and checkpoints call the test when it is not
	// the top-level test hunted: a suite method, "TestSuite/TestMethod"
	// (ForTest). "": the test's name.
	Name string
	// LazyTime lets timers fire only when no goroutine can run: timeout
	// paths that need a goroutine to be delayed are not explored.
	LazyTime bool
	// MaxDelay bounds the scheduling delay a schedule may assume: a timer
	// fires while goroutines can run only when none of them will have
	// waited longer since it became runnable (0: any).
	MaxDelay time.Duration
	Log      io.Writer // progress messages (-v); nil: quiet
	Race     bool      // detect data races (happens-before) in every execution
	GoRace   bool      // build with Go's -race too (BuildOptions.GoRace)
	// Start is when the whole hunt began (its build included); Budget
	// counts from it. Zero: from the start of each test's hunt.
	Start time.Time
	// Vars names variables of Q (as `gopct vars` lists them). pctvb tracks
	// exactly them (nil: every v-subset of the shared ones, from
	// profiling); other strategies make only their memory sites scheduling
	// points, by the build's site→variable table (nil: every memory site).
	// Sync operations are always scheduling points.
	Vars []string
	// Coverage hashes each execution's happens-before graph and fills the
	// summary's coverage curve (distinct classes against executions).
	Coverage bool
	// AllBugs goes on after a bug (explore -all): the hunt reports every
	// distinct one.
	AllBugs bool
	// Chunk: executions come in chunks of this many indices, and the
	// strategies' learned state restarts at each, so that the outcome does
	// not depend on Workers or Shards (pct.Config.Chunk); 0: one sequence
	// per worker (exhaustive search, replays).
	Chunk int
	// Shard and Shards split the chunks of one hunt over several runs
	// (machines): shard i runs chunks i, i+Shards, ...; `gopct merge`
	// combines their results into those of one run.
	Shard, Shards int
	// Progress, when set, is called about every 200ms with the executions
	// ended so far.
	Progress func(executed int)
	// Checkpoint, when set, is called with the chunks that ended without a
	// failure as the hunt goes (each chunk once); Done lists the chunks an
	// earlier, interrupted run of the same hunt finished: they are not run
	// again (-resume).
	Checkpoint func(chunks []int)
	Done       []int
	// Loop > 0 (explore -l): heap variables are named per allocation
	// index, capped at Loop-1 (pct/loopvars.go), in profiling and in the
	// search; a variable set's object variables gate its sites.
	Loop int
	// CheckReplay replays the first bug's token in a fresh process before
	// reporting it, as gopct replay does, and records how that went
	// (results.Bug.ReplayCheck): every report comes with a replay, and the
	// user learns at once when it does not reproduce.
	CheckReplay bool
	// TSearch (classify -tsearch): after (c, v), search for the smallest
	// thread bound T at which the ISSTA search fails (Classification.TSearch).
	TSearch bool

	everyBug bool              // with AllBugs: every failing execution, not one per distinct bug (classify)
	sets     []vbound.Variable // pctvb: the variable set of this hunt (set by HuntVB)
	// attachSet, for a resumable PCTVB hunt, sets up the hunt of one
	// variable set (its range of executions) for resuming (Store.Attach).
	attachSet  func(p *Plan, planned *results.Summary)
	first      int  // first execution index (HuntVB gives each set its own range)
	laterRound bool // HuntVB: a later round of a set already announced ("tracking")
}

// userErr is a user error (usererr.ErrUser: exit 2) found by the campaign.
func userErr(format string, args ...any) error { return usererr.New(usererr.Other, format, args...) }

// Binary is an instrumented, built test binary of one package.
type Binary struct {
	Path    string
	Package string // import path
	Dir     string // package directory (the test's working directory)
	// TestArgs are passed to every run of the test binary after gopct's
	// own flags, as go test passes -short and what follows -args; tokens
	// carry them, so that a replay runs the test as the hunt did.
	TestArgs []string
	Sites    []pct.SiteInfo
	Vars     []pct.VarInfo // the variables of Q; nil when the analysis did not run
	SiteVars [][]int32     // per site id, the variables it may touch (nil: unknown, any)
	Analysis string        // why there is no site→variable table ("" when there is one)
	Module   string
	workDir  string
	root     string            // module root, for module-relative positions
	copies   map[string]string // dependency module copies -> their own directories (instrument.Result.Copies)
	instr    *instrument.Result
	fromTest bool
	GoRace   bool // built with Go's -race (BuildOptions.GoRace)
}

// Build instruments the package (and the dependency modules named in deps)
// and builds its test binary.
func Build(dir, pattern string, deps []string) (*Binary, error) {
	return BuildWith(dir, pattern, BuildOptions{Deps: deps})
}

// BuildOptions are the choices a build makes.
type BuildOptions struct {
	Deps []string // dependency modules instrumented too
	// GoRace also compiles the test binary with Go's -race, so that races
	// that gopct's own detector cannot see (between goroutines gopct does
	// not manage: those started by code it does not instrument, which run
	// natively) are reported too; see goRaceEnv.
	GoRace bool
}

// BuildWith is Build with every option.
func BuildWith(dir, pattern string, o BuildOptions) (*Binary, error) {
	deps := o.Deps
	arg := pattern
	dir, pattern = splitPattern(dir, pattern)
	var flags []string
	if o.GoRace {
		flags = []string{"-race"}
	}
	front := frontPath(dir, pattern, deps, flags)
	if b, err := buildFromFront(front); b != nil || err != nil {
		if b != nil {
			b.GoRace = o.GoRace
		}
		return b, err
	}
	res, err := instrument.Instrument(instrument.Config{Dir: dir, Patterns: []string{pattern}, Deps: deps, RuntimeCache: cacheDir()})
	if err != nil {
		var ue *usererr.Error
		if errors.As(err, &ue) {
			// go/packages prefixes errors without a position with "-: ".
			return nil, &usererr.Error{Reason: ue.Reason, Detail: strings.ReplaceAll(ue.Detail, "-: ", "")}
		}
		return nil, err
	}
	work, err := os.MkdirTemp("", "gopct-run-")
	if err != nil {
		res.Cleanup()
		return nil, err
	}
	b := &Binary{Path: filepath.Join(work, "pkg.test"), workDir: work, instr: res, Sites: res.Sites, Module: res.ModulePath, root: res.ModuleRoot, copies: res.Copies()}
	table, why := siteVarTable(res, pattern)
	if err := res.WriteSiteVars(table); err != nil {
		b.Close()
		return nil, err
	}
	b.SiteVars, b.Analysis = res.SiteVars(table), why
	if table != nil {
		b.Vars = table.Vars
	}
	b.GoRace = o.GoRace
	if err := cachedBuild(res, pattern, b.Path, flags); err != nil {
		b.Close()
		return nil, err
	}
	if _, err := os.Stat(b.Path); err != nil {
		b.Close() // go test -c writes nothing for a package without tests
		return nil, userErr("no test files in %s", arg)
	}
	if err := b.locate(dir, pattern); err != nil {
		b.Close()
		return nil, err
	}
	storeFront(front, res, pattern, flags, b)
	// The load (syntax, types, SSA: a few hundred megabytes) is not needed
	// past the build; gopct ci keeps a Binary per package until its tests
	// are hunted (51 corpus packages held 11.7 GB).
	res.Program = nil
	return b, nil
}

// buildFromFront returns the binary the front cache records for the
// request at path, when its inputs are unchanged (nil otherwise).
func buildFromFront(path string) (*Binary, error) {
	if path == "" {
		return nil, nil
	}
	work, err := os.MkdirTemp("", "gopct-run-")
	if err != nil {
		return nil, err
	}
	b := &Binary{Path: filepath.Join(work, "pkg.test"), workDir: work}
	e := lookFront(path, b.Path)
	if e == nil {
		os.RemoveAll(work)
		return nil, nil
	}
	b.Sites, b.Vars, b.SiteVars, b.Analysis = e.Sites, e.Vars, e.SiteVars, e.Analysis
	b.Module, b.root, b.Package, b.Dir, b.copies = e.Module, e.Root, e.Package, e.Dir, e.Copies
	return b, nil
}

// splitPattern turns a directory argument in another module (like
// ./examples/lostupdate, a nested module) into "run in that directory, ".".
func splitPattern(dir, pattern string) (string, string) {
	if pattern == "" {
		pattern = "."
	}
	p := pattern
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return p, "."
	}
	return dir, pattern
}

// locate finds the package's import path and directory with go list.
func (b *Binary) locate(dir, pattern string) error {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}", pattern)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return userErr("go list %s: %v", pattern, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 {
		return userErr("%s matches %d packages; gopct hunts one package at a time", pattern, len(lines))
	}
	parts := strings.SplitN(lines[0], "\t", 2)
	b.Package, b.Dir = parts[0], parts[1]
	return nil
}

// retryBusy runs f again while it fails with "text file busy": a binary
// just written (copied from the cache) cannot be executed while a process
// forked by another goroutine in the meantime still holds the write
// descriptor, until that process execs (golang.org/issue/22315; the go
// command retries the same way).
func retryBusy(f func() ([]byte, error)) ([]byte, error) {
	for i := 0; ; i++ {
		out, err := f()
		if i == 20 || !errors.Is(err, syscall.ETXTBSY) {
			return out, err
		}
		time.Sleep(time.Duration(i+1) * 10 * time.Millisecond)
	}
}

// Close removes the binary and the instrumented copy.
func (b *Binary) Close() {
	if dir := os.Getenv("GOPCT_KEEP"); dir != "" {
		// Debugging aid: keep the instrumented binary and sources.
		os.Rename(b.Path, filepath.Join(dir, "pkg.test"))
		if b.instr != nil {
			os.Rename(b.instr.WorkDir, filepath.Join(dir, "instr"))
		}
	}
	if b.instr != nil {
		b.instr.Cleanup()
	}
	os.RemoveAll(b.workDir)
}

// SplitRun splits a -run pattern like go test does at its first level:
// "TestX/case 1" selects the top-level tests matching "TestX" and, inside
// them, the subtests matching "case 1" (slashes inside brackets or
// parentheses do not split).
func SplitRun(run string) (top, sub string) {
	levels := pct.SplitLevels(run)
	return levels[0], strings.Join(levels[1:], "/")
}

// Tests lists the binary's top-level tests matching the first level of
// the -run pattern.
func (b *Binary) Tests(run string) ([]string, error) {
	run, _ = SplitRun(run)
	if run == "" {
		run = "."
	}
	if _, err := regexp.Compile(run); err != nil {
		return nil, userErr("bad -run regexp: %v", err)
	}
	out, err := retryBusy(func() ([]byte, error) {
		cmd := exec.Command(b.Path, "-test.list", run)
		cmd.Dir = b.Dir
		return cmd.Output()
	})
	if err != nil {
		return nil, fmt.Errorf("listing tests: %v", err)
	}
	var tests []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Test") {
			tests = append(tests, l)
		}
	}
	if len(tests) == 0 {
		return nil, userErr("no test in %s matches -run %q", b.Package, run)
	}
	return tests, nil
}

// worker is one test-binary process of a campaign.
type worker struct {
	cmd    *exec.Cmd
	out    string
	output *os.File
	err    error
	killed bool // stopped by us: it had passed a failing execution of another worker
	exited bool
	died   bool // the process died in an execution (crash log read)
	// nextChunk is 1 + the next chunk this worker runs that is not yet
	// reported done (0: not started).
	nextChunk int
	recs      []pct.Record // what it reported, once exited
	cfg       pct.Config
	root      string            // module root, for module-relative positions
	paths     *strings.Replacer // names files of module copies by their own names (copyNames)
}

// Hunt runs the campaign for one test and returns its summary.
func (b *Binary) Hunt(p Plan, test string) (*results.Summary, error) {
	h, err := b.hunt(p, test)
	if err != nil {
		return nil, err
	}
	return h.summary, nil
}

// hunt is Hunt, also returning the workers' final records (and every bug).
func (b *Binary) hunt(p Plan, test string) (*huntResult, error) {
	start := time.Now()
	_, sub := SplitRun(p.Run)
	// Outside a variable-bounded sub-hunt (HuntVB sets p.sets), -vars
	// gates memory sites by the site→variable table of the build.
	var vars []int
	if p.sets == nil {
		var err error
		if vars, err = b.VarIDs(p.Vars); err != nil {
			return nil, err
		}
	}
	cfg := pct.Config{Vars: vars, Version: pct.SchemaVersion, Test: test, Sub: sub, Spec: p.Spec, Seed: p.Seed, Iters: p.Iters, First: p.first,
		Workers: p.Workers, MaxSteps: p.MaxSteps, Timeout: int64(p.Timeout), MaxDelay: int64(p.MaxDelay), Race: p.Race, Stall: p.Stall.Seconds(), LazyTime: p.LazyTime,
		Coverage: p.Coverage, AllBugs: p.AllBugs}
	if p.Budget > 0 {
		from := start
		if !p.Start.IsZero() {
			from = p.Start
		}
		cfg.Deadline = from.Add(p.Budget).UnixNano()
	}
	applySets(&cfg, p.sets)
	if cfg.Loop = p.Loop; p.Loop > 0 && p.sets != nil {
		cfg.Objects = objectsOf(p.sets)
	}
	if p.sets != nil && p.Log != nil && !p.laterRound {
		fmt.Fprintf(p.Log, "gopct: tracking %s\n", setNames(p.sets))
	}
	ids := workerIDs(p, &cfg)
	var cpu time.Duration
	hooks := runHooks{progress: p.Progress, cpu: &cpu}
	if cfg.Chunk > 0 {
		cfg.Done = p.Done
		if p.Checkpoint != nil {
			hooks.chunksDone = p.Checkpoint
		}
	}
	queue := p.Workers > 1 && exhaustiveSpec(p.Spec)
	cfg.RandFixed = exhaustiveSpec(p.Spec)
	var recs []pct.Record
	var fresh bool
	var err error
	if queue {
		recs, err = b.runQueue(cfg, p.Workers, hooks)
	} else {
		recs, fresh, err = b.runCarried(p, cfg, ids, hooks)
	}
	if err != nil {
		return nil, err
	}
	run := huntRun{p: p, test: test, sub: sub, vars: vars, cfg: cfg, recs: recs, fresh: fresh, queue: queue}
	h := b.summarize(run)
	if b.crowded(run, h) {
		if h, err = b.huntAlone(run, h, hooks); err != nil {
			return nil, err
		}
	}
	h.summary.Seconds = time.Since(start).Seconds()
	h.summary.CPUSeconds = cpu.Seconds()
	return h, nil
}

// huntRun is one run of a hunt's executions: its plan, its workers'
// configuration and their final records.
type huntRun struct {
	p         Plan
	test, sub string
	vars      []int
	cfg       pct.Config
	recs      []pct.Record
	fresh     bool // one process per execution (runCarried)
	queue     bool // workers shared a queue of exhaustive-search items
}

// token is the replay token of bug r found in run.
func (b *Binary) token(run huntRun, r *pct.BugReport) Token {
	p, cfg := run.p, run.cfg
	tok := Token{Package: b.Package, Dir: b.Dir, Test: run.test, Sub: run.sub, Schedule: r.Schedule, Execution: r.Execution,
		Kind: r.Kind, Message: r.Message, LazyTime: p.LazyTime, Deps: p.Deps, Spec: p.Spec, MaxSteps: p.MaxSteps, Timeout: int64(p.Timeout), MaxDelay: int64(p.MaxDelay), Epoch: r.Epoch, InitLead: r.InitLead,
		Sites: cfg.Sites, Race: p.Race, GoRace: b.GoRace, Seed: p.Seed, Loop: cfg.Loop, Objects: cfg.Objects, TestArgs: b.TestArgs}
	if run.vars != nil {
		tok.Vars = p.Vars
	}
	// Not after a shared queue's worker (it ran other items before) nor
	// in one process per execution (nothing ran before).
	if !run.queue && !run.fresh && cfg.RanBefore(r.Execution) {
		tok.PriorFirst, tok.PriorStride, tok.PriorChunk, tok.PriorDone = cfg.First, max(1, cfg.Workers), cfg.Chunk, cfg.Done
		if p.Spec.Name == "pctvb" {
			tok.VarSites = cfg.VarSites
		}
	}
	return tok
}

// summarize is the summary of run, with its first bug (and, with AllBugs,
// every distinct bug); the caller fills in the time taken.
func (b *Binary) summarize(run huntRun) *huntResult {
	p, cfg, recs := run.p, run.cfg, run.recs
	s := b.Planned(p, run.test)
	s.Fresh = run.fresh
	s.Resumed = doneExecutions(cfg)
	s.Executions, s.Finished = s.Resumed, s.Resumed
	var best *pct.BugReport
	for _, r := range recs {
		if r.Type == recDied {
			s.Deaths = append(s.Deaths, results.Death{Execution: r.Bug.Execution, Message: r.Bug.Message, Replay: b.token(run, r.Bug).Encode()})
		}
		if r.Type == pct.RecDone {
			addDone(s, r)
		}
		if r.Type == pct.RecBug && (best == nil || r.Bug.Execution < best.Execution) {
			best = r.Bug
		}
	}
	s.UnmanagedAt = b.modRel(s.UnmanagedAt) // module-relative, like the sites
	if p.Coverage {
		s.Coverage = coverageCurve(executionClasses(recs))
	}
	report := func(r *pct.BugReport) *results.Bug { return b.bugWith(b.token(run, r), r) }
	if best != nil {
		s.Bug = report(best)
		if p.CheckReplay && !p.AllBugs {
			s.Bug.ReplayCheck = b.checkReplay(b.token(run, best))
		}
	}
	var bugs []*results.Bug
	if p.AllBugs {
		bugs = distinctBugs(recs, report, p.everyBug)
	}
	return &huntResult{s, recs, bugs}
}

// addDone adds a worker's final record to the summary.
func addDone(s *results.Summary, r pct.Record) {
	s.Executions += r.Executions
	s.Finished += r.Finished
	s.Abandoned += r.Abandoned
	s.HeldTimer = max(s.HeldTimer, r.HeldTimer)
	if s.HeldNative == "" {
		s.HeldNative = r.HeldNative
	}
	s.Bounds = r.Bounds
	s.Complete = r.Complete
	s.Unmanaged += r.Unmanaged
	if s.UnmanagedAt == "" {
		s.UnmanagedAt = r.UnmanagedAt
	}
}

// huntResult is a hunt's summary, its workers' final records, and with
// Plan.AllBugs every distinct bug in the order found.
type huntResult struct {
	summary *results.Summary
	recs    []pct.Record
	bugs    []*results.Bug
}

// Planned is the summary of a hunt before it runs: what identifies it in
// a results file (results.Key).
func (b *Binary) Planned(p Plan, test string) *results.Summary {
	if p.Name != "" {
		test = p.Name
	}
	s := &results.Summary{Test: test, Package: b.Package, Strategy: p.Spec.Name, Spec: p.Spec, Seed: p.Seed, Mode: "bubble",
		Iters: p.Iters, First: p.first, Workers: p.Workers}
	if p.Shards > 1 {
		s.Shard, s.Shards = p.Shard, p.Shards
	}
	if p.Chunk > 0 && chunkable(p.Spec) {
		s.Chunk = p.Chunk
	}
	return s
}

// workerIDs sets the chunking of cfg and returns the worker indices this
// run starts: with Shards, the worker stride covers every shard's workers
// and this shard's are those whose chunks fall to it.
func workerIDs(p Plan, cfg *pct.Config) []int {
	if p.Chunk <= 0 || !chunkable(p.Spec) {
		return nil
	}
	cfg.Chunk = p.Chunk
	shards := max(1, p.Shards)
	cfg.Workers = p.Workers * shards
	ids := make([]int, p.Workers)
	for i := range ids {
		ids[i] = p.Shard + shards*i
	}
	return ids
}

// exhaustiveSpec says whether the strategy is an exhaustive search (its
// work items are prefixes recorded in one execution and followed in
// another).
func exhaustiveSpec(s pct.Spec) bool { return s.Name == "exhaustive" || s.Name == ISSTASearch }

// chunkable says whether the strategy's executions can be split: each
// depends on its index and the seed (and on learned state chunks
// restart); an exhaustive search is one sequence.
func chunkable(s pct.Spec) bool {
	return s.Name == "pct" || s.Name == "pctvb" || s.Name == "random" || s.Name == "portfolio"
}

func (b *Binary) bugWith(tok Token, r *pct.BugReport) *results.Bug {
	// A panic's position, or a failure's caller outside the test's helpers,
	// comes from a stack: module-relative like the sites. The goroutine that
	// failed is listed at that position too ("g1 exited last at
	// /tmp/.../pool_test.go:848" beside "at pool_test.go:848").
	r.At = b.modRel(r.At)
	for i := range r.Goroutines {
		r.Goroutines[i].At = b.modRel(r.Goroutines[i].At)
	}
	bug := &results.Bug{BugReport: *r, Replay: tok.Encode()}
	_, bug.Variables = variablesAtPreemptions(bug)
	bug.Threads = threadsConstrained(bug)
	return bug
}

// modRel returns an absolute "file:line" inside the module relative to its
// root, and any other position as it is.
func (b *Binary) modRel(pos string) string {
	if rel, err := filepath.Rel(b.root, pos); err == nil && filepath.IsAbs(pos) && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return pos
}

// runWorkers starts the worker processes of cfg (ids: their worker
// indices; nil: 0..cfg.Workers-1) and returns every worker's final records
// (bug and done). The first bug of a campaign is the failing execution of
// smallest index, whatever the number of workers: once a worker reports a
// failure at execution e, each other worker runs on until it has passed e
// (its executions below e may fail first) and is stopped then.
func (b *Binary) runWorkers(cfg pct.Config, ids []int, hooks runHooks) ([]pct.Record, error) {
	if ids == nil {
		for i := range cfg.Workers {
			ids = append(ids, i)
		}
	}
	ws := make([]*worker, len(ids))
	for i, id := range ids {
		c := cfg
		c.Worker = id
		w, err := b.start(c)
		if err != nil {
			for _, v := range ws[:i] {
				v.cmd.Process.Kill()
				v.cmd.Wait()
			}
			return nil, err
		}
		ws[i] = w
	}
	exited := make(chan *worker, len(ws)+maxReplacements)
	wait := func(w *worker) {
		w.err = w.cmd.Wait()
		reapGroup(w.cmd)
		w.output.Close()
		exited <- w
	}
	for _, w := range ws {
		go wait(w)
	}
	replaced := 0
	ticker := time.NewTicker(5 * time.Millisecond)
	defer ticker.Stop()
	// Poll the workers' crash logs only when something needs them: each
	// wakeup takes a core from a worker for a moment (200 a second).
	polling := hooks.progress != nil || hooks.chunksDone != nil
	if !polling {
		ticker.Stop() // until a worker fails: the others are then stopped past it
	}
	bound, ticks := -1, 0
	var firstErr error
	for alive := len(ws); alive > 0; {
		select {
		case w := <-exited:
			alive--
			if st := w.cmd.ProcessState; st != nil && hooks.cpu != nil {
				*hooks.cpu += st.UserTime() + st.SystemTime()
			}
			w.exited = true
			if w.killed {
				w.recs = w.stoppedRecords()
				continue
			}
			recs, err := w.records()
			if err == nil && w.died && !b.reproducesDeath(w, recs) {
				// The environment killed it (memory pressure, a signal),
				// not the program: replace it.
				var nw *worker
				death := recs[0].Bug
				if _, program := deathCause(death.Message); program && w.cfg.RanBefore(death.Execution) {
					// Unless the process crashed itself after earlier
					// executions (glog's TestRollover, sweep fresh34:
					// SIGABRT, its log file exists): their leftovers, as
					// under go test -count=2. The hunt runs again with
					// one process per execution (runCarried).
					err = &stateOutlives{userErr("the test process died in execution %d (%s) after earlier executions in it, "+
						"and its replay in a fresh process did not die", death.Execution, death.Message)}
				} else if replaced++; replaced > maxReplacements {
					err = diedUnreplayed(replaced, recs[0].Bug.Message)
				} else if nw, recs, err = b.replace(w, recs); err == nil {
					ws = append(ws, nw)
					alive++
					go wait(nw)
				}
			}
			if err != nil && firstErr == nil {
				firstErr = err
				killAll(ws) // an error ends the campaign
			}
			w.recs = recs
			if e, ok := firstBugIndex(recs); ok && (bound < 0 || e < bound) {
				bound = e
			}
		case <-ticker.C:
			if ticks++; hooks.progress != nil && ticks%40 == 0 {
				hooks.progress(executedSoFar(ws))
			}
		}
		if hooks.chunksDone != nil && (ticks%20 == 0 || alive == 0) {
			if done := chunksDone(ws); len(done) > 0 {
				hooks.chunksDone(done)
			}
		}
		if bound >= 0 {
			if !polling {
				ticker.Reset(5 * time.Millisecond)
				polling = true
			}
			stopPassed(ws, bound)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	var all []pct.Record
	for _, w := range ws {
		all = append(all, w.recs...)
	}
	return all, nil
}

// deathCause names the likely cause of worker deaths that their replays, in
// a fresh process, did not repeat. The machine's doing (memory pressure, a
// signal) unless the worker died of a fatal error of the Go runtime other
// than running out of memory: the replay runs the execution without those
// that ran before it in the worker's process, so what those left behind is
// the likely cause. go-zero's core/proc (sweep fresh28) killed every
// worker with "fatal error: sync: WaitGroup.Add called from multiple
// synctest bubbles" (a WaitGroup an earlier execution's bubble owned), and
// the message blamed the machine's memory.
func deathCause(message string) (cause string, program bool) {
	if i := strings.Index(message, "fatal error: "); i >= 0 {
		fatal := message[i:]
		if !strings.Contains(fatal, "out of memory") && !strings.Contains(fatal, "cannot allocate memory") {
			return "a fatal error of the Go runtime that the replay, run in a fresh process without the executions " +
				"before it, did not meet: state that those executions left in the process is the likely cause " +
				"(gopct runs many executions in one process), not the test", false
		}
	}
	if sig := selfSignal(message); sig != "" {
		// The process crashed itself: the Go runtime printed the dump of
		// a synchronous signal (a nil dereference outside Go's checks,
		// abort(3)). A kill from outside (the OOM killer's SIGKILL) leaves
		// no dump. glog's TestRollover (sweep fresh34) aborts the process
		// with SIGABRT when its log file, named after its fake clock,
		// exists: every execution after the first in a process died, and
		// the message blamed the machine ("last output: gs 0x0").
		return "the test's process crashed itself (" + sig + ", with the Go runtime's dump: no kill from outside), " +
			"and the replay, run in a fresh process without the executions before it, did not: the test depends " +
			"on what earlier runs left behind, in the process or on disk (gopct runs many executions in one " +
			"process; go test -count=2 would likely meet it too)", true
	}
	return "the machine, not the test, is the likely cause (out of memory? a signal?)", false
}

// selfSignal returns the signal named in a crash message that only the
// process itself raises (crashMessage quotes the header of the Go
// runtime's signal dump, "SIGABRT: abort"), or "".
func selfSignal(message string) string {
	for _, sig := range []string{"SIGABRT", "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGTRAP"} {
		if strings.Contains(message, sig+": ") {
			return sig
		}
	}
	return ""
}

// diedUnreplayed is the error of a campaign whose worker processes died n
// times in executions whose replays did not die; last is the last death's
// message. A death the program caused itself is an environment error
// (exit 2) that says so, not an internal one.
func diedUnreplayed(n int, last string) error {
	cause, program := deathCause(last)
	if program {
		return userErr("worker processes died %d times in executions whose replay did not die: %s; last: %s", n, cause, last)
	}
	return fmt.Errorf("worker processes died %d times in executions whose replay did not die: %s; last: %s", n, cause, last)
}

// maxReplacements bounds the worker processes a campaign replaces.
const maxReplacements = 3

// reproducesDeath replays the execution a worker died in, in a fresh
// process: a death that does not happen again is not reported as a bug
// (every bug gopct reports comes with a replay that reproduces it).
func (b *Binary) reproducesDeath(w *worker, recs []pct.Record) bool {
	bug := recs[0].Bug
	cfg := w.cfg
	cfg.Spec, cfg.Replay, cfg.Queue = pct.Spec{Name: "replay"}, bug.Schedule, false
	cfg.First, cfg.Iters, cfg.Worker, cfg.Workers, cfg.Chunk, cfg.Done, cfg.Deadline = bug.Execution, bug.Execution+1, 0, 1, 0, nil, 0
	r, err := b.start(cfg)
	if err != nil {
		return true // cannot tell: keep the report
	}
	r.err = r.cmd.Wait()
	reapGroup(r.cmd)
	r.output.Close()
	out, err := r.records()
	return err == nil && r.died && len(out) > 0
}

// replace starts a worker in place of one that died in an execution whose
// replay did not die. It restarts the chunk of that execution from its
// start (so that the chunk's executions do not depend on the death) and
// returns, for the dead worker, the count of executions it ended before
// that chunk and the death, as a "died" record.
func (b *Binary) replace(w *worker, recs []pct.Record) (*worker, []pct.Record, error) {
	death := recs[0].Bug
	cfg := w.cfg
	if cfg.Chunk <= 0 {
		// One sequence whose state lives in the process (an exhaustive
		// search): it cannot go on elsewhere.
		cause, program := deathCause(death.Message)
		if program {
			return nil, nil, userErr("the test process died in execution %d (%s), and its replay did not die: "+
				"%s", death.Execution, death.Message, cause)
		}
		return nil, nil, fmt.Errorf("the test process died in execution %d (%s), and its replay did not die: "+
			"%s", death.Execution, death.Message, cause)
	}
	start := cfg.First + (death.Execution-cfg.First)/cfg.Chunk*cfg.Chunk
	cfg.Done = slices.Clone(cfg.Done)
	for c := cfg.Worker; cfg.First+c*cfg.Chunk < start; c += cfg.Workers {
		cfg.Done = append(cfg.Done, c)
	}
	nw, err := b.start(cfg)
	if err != nil {
		return nil, nil, err
	}
	n := executionsBefore(w.cfg, start)
	return nw, []pct.Record{
		{Version: pct.SchemaVersion, Type: pct.RecDone, Worker: w.cfg.Worker, Executions: n, Finished: n},
		{Version: pct.SchemaVersion, Type: recDied, Worker: w.cfg.Worker, Bug: death},
	}, nil
}

// recDied reports a worker that died in an execution whose replay did not
// die: the death is the environment's, reported without being a bug.
const recDied pct.RecordType = "died"

func killAll(ws []*worker) {
	for _, w := range ws {
		if !w.exited && !w.killed {
			w.killed = true
			w.cmd.Process.Kill()
		}
	}
}

// runHooks are what a campaign learns while its workers run.
type runHooks struct {
	progress   func(executed int) // about every 200ms: executions ended so far
	chunksDone func(chunks []int) // chunks that ended without a failure, each once
	cpu        *time.Duration     // nil, or adds up the CPU time of the worker processes
}

// chunksDone returns the chunks the workers have newly finished without a
// failure: those wholly before the execution a worker is in (or, once it
// exited without a failure, up to its last one).
func chunksDone(ws []*worker) []int {
	var out []int
	for _, w := range ws {
		if w.cfg.Chunk <= 0 {
			continue
		}
		cur, ok := pct.CrashLogExecution(w.cfg.CrashLog)
		if !ok {
			continue
		}
		if w.exited && !w.killed && endedClean(w.recs) {
			cur++ // its last execution ended too
		}
		for {
			if w.nextChunk == 0 {
				w.nextChunk = w.cfg.Worker + 1 // 1-based: 0 means not started
			}
			c := w.nextChunk - 1
			if slices.Contains(w.cfg.Done, c) {
				w.nextChunk += w.cfg.Workers
				continue
			}
			end := min(w.cfg.First+(c+1)*w.cfg.Chunk, w.cfg.Iters)
			if end > cur || w.cfg.First+c*w.cfg.Chunk >= w.cfg.Iters {
				break
			}
			out = append(out, c)
			w.nextChunk += w.cfg.Workers
		}
	}
	return out
}

// endedClean says whether a worker's records end with a done record and
// hold no failure.
func endedClean(recs []pct.Record) bool {
	_, bug := firstBugIndex(recs)
	return !bug && len(recs) > 0 && recs[len(recs)-1].Type == pct.RecDone
}

// stopPassed stops the running workers whose current execution is past
// bound: everything they ran before it ended without a failure.
func stopPassed(ws []*worker, bound int) {
	for _, w := range ws {
		if w.exited || w.killed {
			continue
		}
		cur, ok := pct.CrashLogExecution(w.cfg.CrashLog)
		if (ok && cur > bound) || (!ok && !crashLogs) {
			w.killed = true
			w.cmd.Process.Kill()
		}
	}
}

// crashLogs says whether worker processes keep a crash log (memory-mapped,
// unix only): without one, a worker's progress is unknown and the others
// are stopped at the first failure (the outcome may then depend on the
// number of workers).
var crashLogs = runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1"

// stoppedRecords is the done record of a worker stopped past a failing
// execution: it ran its executions before the one it was in.
func (w *worker) stoppedRecords() []pct.Record {
	cur, ok := pct.CrashLogExecution(w.cfg.CrashLog)
	if !ok {
		return nil
	}
	n := executionsBefore(w.cfg, cur)
	return []pct.Record{{Version: pct.SchemaVersion, Type: pct.RecDone, Worker: w.cfg.Worker, Executions: n, Finished: n}}
}

// executionsBefore counts the executions a worker of cfg runs before
// index i (its executions are chunks, or single indices, strided by
// Workers).
func executionsBefore(cfg pct.Config, i int) int {
	chunk := max(1, cfg.Chunk)
	first := cfg.First + cfg.Worker*chunk
	if i <= first {
		return 0
	}
	stride := chunk * max(1, cfg.Workers)
	full, rest := (i-first)/stride, (i-first)%stride
	n := full*chunk + min(rest, chunk)
	for _, c := range cfg.Done {
		if start := cfg.First + c*chunk; c%max(1, cfg.Workers) == cfg.Worker && start < i {
			n -= min(chunk, i-start) // skipped: done in an earlier run
		}
	}
	return n
}

// doneExecutions counts the executions of the chunks an earlier run did.
func doneExecutions(cfg pct.Config) int {
	n := 0
	for _, c := range cfg.Done {
		start := cfg.First + c*cfg.Chunk
		n += max(0, min(cfg.Chunk, cfg.Iters-start))
	}
	return n
}

// executedSoFar estimates the executions the running workers have ended.
func executedSoFar(ws []*worker) int {
	n := 0
	for _, w := range ws {
		if w.exited {
			for _, r := range w.recs {
				if r.Type == pct.RecDone {
					n += r.Executions
				}
			}
			continue
		}
		if cur, ok := pct.CrashLogExecution(w.cfg.CrashLog); ok {
			n += executionsBefore(w.cfg, cur)
		}
	}
	return n
}

func firstBugIndex(recs []pct.Record) (int, bool) {
	e, ok := 0, false
	for _, r := range recs {
		if r.Type == pct.RecBug && (!ok || r.Bug.Execution < e) {
			e, ok = r.Bug.Execution, true
		}
	}
	return e, ok
}

// start starts a worker process of cfg; extra become its descriptors 3,
// 4, ... (a shared queue's task and result pipes).
func (b *Binary) start(cfg pct.Config, extra ...*os.File) (*worker, error) {
	dir, err := os.MkdirTemp(b.workDir, "w")
	if err != nil {
		return nil, err
	}
	cfg.Out = filepath.Join(dir, "out.jsonl")
	cfg.CrashLog = filepath.Join(dir, "crash.log")
	data, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		return nil, err
	}
	output, err := os.Create(filepath.Join(dir, "output.txt"))
	if err != nil {
		return nil, err
	}
	var cmd *exec.Cmd
	_, err = retryBusy(func() ([]byte, error) {
		args := append([]string{"-test.run", "^" + regexp.QuoteMeta(cfg.Test) + "$", "-test.count=1", "-test.timeout=0"}, b.TestArgs...)
		cmd = exec.Command(b.Path, args...)
		cmd.Dir = b.Dir
		cmd.Env = append(os.Environ(), "GOPCT_CONFIG="+cfgPath)
		if b.GoRace {
			cmd.Env = append(cmd.Env, goRaceEnv())
		}
		cmd.Stdout, cmd.Stderr = output, output
		cmd.ExtraFiles = extra
		dieWithParent(cmd)
		return nil, cmd.Start()
	})
	if err != nil {
		output.Close()
		return nil, err
	}
	return &worker{cmd: cmd, out: cfg.Out, output: output, cfg: cfg, root: b.root, paths: copyNames(b.copies)}, nil
}

// records returns what a worker reported, or an error explaining why it
// reported nothing usable.
func (w *worker) records() ([]pct.Record, error) {
	recs, err := readRecords(w.out, w.paths)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		switch r.Type {
		case pct.RecStall:
			err := userErr("the test made no progress: %s\n\n%s", stallAdvice, r.Message)
			if r.AfterOthers && w.cfg.Replay == "" {
				return nil, &stateOutlives{err} // perhaps blocked on an earlier execution's leftovers
			}
			return nil, err
		case pct.RecError:
			return nil, userErr("%s", r.Message)
		}
	}
	if len(recs) > 0 && (recs[len(recs)-1].Type == pct.RecDone || hasBugRec(recs)) {
		return recs, nil
	}
	if w.cmd.ProcessState != nil && !w.cmd.ProcessState.Success() {
		return w.crashed()
	}
	return recs, nil
}

// crashed turns the death of a worker process into a "fatal" bug report,
// with the schedule of the execution that was running, read from the
// memory-mapped crash log.
func (w *worker) crashed() ([]pct.Record, error) {
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(w.out), "output.txt"))
	out := []byte(w.paths.Replace(string(data)))
	if dir := os.Getenv("GOPCT_KEEP"); dir != "" {
		os.WriteFile(filepath.Join(dir, "crash-output.txt"), out, 0o644) // debugging aid, as in Close
	}
	if msg, ok := signalCrash(string(out)); ok {
		return nil, userErr("%s (%s)", msg, crashMessage(string(out), w.err))
	}
	if strings.Contains(string(out), "synctest channel from outside bubble") {
		// Not the program's failure: a goroutine outside the execution's
		// bubble (started in init, or kept in package state by an earlier
		// execution) used a channel made inside it, which the Go runtime
		// forbids. The program is fine under go test.
		return nil, &stateOutlives{userErr("a goroutine gopct does not run inside the test's execution used a channel made inside it "+
			"(%s): typically a goroutine started in init or by an earlier test, or package-level state (a lazily started "+
			"worker pool) kept from one execution to the next. gopct runs every execution in a testing/synctest bubble and "+
			"cannot let goroutines outside it take part; start such goroutines inside the test", crashMessage(string(out), w.err))}
	}
	exec, sched, err := pct.ReadCrashLog(w.cfg.CrashLog)
	if err != nil {
		return nil, fmt.Errorf("test process died without a report (%v):\n%s", w.err, tail(string(out), 4000))
	}
	bug := &pct.BugReport{Kind: pct.FailFatal, Message: crashMessage(string(out), w.err), Execution: exec,
		Schedule: sched.Encode(), Stack: tail(string(out), 8000), Epoch: sched.Epoch}
	if msg, report, ok := goRaceReport(string(out), w.root); ok {
		bug.Kind, bug.Message, bug.Stack = pct.FailRace, msg, report
	}
	n := executionsBefore(w.cfg, exec) + 1
	w.died = true
	return []pct.Record{
		{Version: pct.SchemaVersion, Type: pct.RecBug, Worker: w.cfg.Worker, Executions: n, Bug: bug},
		{Version: pct.SchemaVersion, Type: pct.RecDone, Worker: w.cfg.Worker, Executions: n, Outcome: bug},
	}, nil
}

// crashMessage extracts the reason a test process died from its output.
func crashMessage(out string, err error) string {
	for _, l := range strings.Split(out, "\n") {
		for _, p := range []string{"fatal error: ", "panic: "} {
			if strings.HasPrefix(l, p) {
				return strings.TrimSpace(l)
			}
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if sig, words := signalDump(lines); sig != "" {
		return fmt.Sprintf("the test process died (%v): %s, after it printed: %s", err, sig, words)
	}
	last := ""
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "FAIL") && !strings.HasPrefix(l, "exit status") {
			last = l
			break
		}
	}
	return fmt.Sprintf("the test process died (%v); last output: %s", err, last)
}

// signalDump finds the header of the Go runtime's dump of a signal that
// killed the process ("SIGABRT: abort", followed by a "PC=" line) and the
// last line the process printed before its first stack dump, the
// program's last words ("F1223 ... log: exiting because of error ...:
// file exists" from glog). The last line of the output was a register of
// the dump ("gs     0x0"), which said nothing.
func signalDump(lines []string) (sig, words string) {
	for i, l := range lines {
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "PC=") && strings.HasPrefix(l, "SIG") && strings.Contains(l, ": ") {
			sig = strings.TrimSpace(l)
			break
		}
	}
	if sig == "" {
		return "", ""
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "goroutine ") || strings.HasPrefix(l, "SIG") {
			break
		}
		if l = strings.TrimSpace(l); l != "" {
			words = l
		}
	}
	if words == "" {
		words = "nothing"
	}
	return sig, words
}

const stallAdvice = `a goroutine is blocked where the testing/synctest bubble cannot see it
(network or file I/O, such as a server the test starts with httptest.NewServer or
net.Listen, whose goroutines wait for connections; a system call; a mutex held inside
code gopct does not instrument; or a channel created outside the test function, e.g. in
a package-level variable), or it loops without reaching a scheduling point. gopct needs
every blocking operation of the test to happen on values created inside the test
(net.Pipe instead of a network connection).`

func hasBugRec(recs []pct.Record) bool {
	for _, r := range recs {
		if r.Type == pct.RecBug {
			return true
		}
	}
	return false
}

func readRecords(path string, paths *strings.Replacer) ([]pct.Record, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []pct.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var r pct.Record
		if json.Unmarshal([]byte(paths.Replace(sc.Text())), &r) != nil {
			continue // a line cut short by a killed writer
		}
		if r.Version != pct.SchemaVersion {
			return nil, fmt.Errorf("%s: record of schema version %d, gopct reads %d", path, r.Version, pct.SchemaVersion)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

// copyNames replaces the directory of each copy in copies (a stack's file
// names, in a record or the process's output) by its module's own. The
// directories are plain paths (gopct's temporary or cache directories, the
// module cache), the same in JSON text as out of it.
func copyNames(copies map[string]string) *strings.Replacer {
	var pairs []string
	for c, dir := range copies {
		pairs = append(pairs, c+string(filepath.Separator), dir+string(filepath.Separator))
	}
	return strings.NewReplacer(pairs...)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
