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
	"strings"
	"sync"
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
	// LazyTime lets timers fire only when no goroutine can run: timeout
	// paths that need a goroutine to be delayed are not explored.
	LazyTime bool
	// MaxDelay bounds the scheduling delay a schedule may assume: a timer
	// fires while goroutines can run only when due within it (0: any).
	MaxDelay time.Duration
	Log      io.Writer // progress messages (-v); nil: quiet
	Race     bool      // detect data races (happens-before) in every execution
	// Start is when the whole hunt began (its build included); Budget
	// counts from it. Zero: from the start of each test's hunt.
	Start time.Time
	// Vars names variables of Q (as `gopct vars` lists them). pctvb tracks
	// exactly them (nil: every v-subset of the shared ones, from
	// profiling); other strategies make only their memory sites scheduling
	// points, by the build's site→variable table (nil: every memory site).
	// Sync operations are always scheduling points.
	Vars []string

	sets  []vbound.Variable // pctvb: the variable set of this hunt (set by HuntVB)
	first int               // first execution index (HuntVB gives each set its own range)
}

// userErr is a user error (usererr.ErrUser: exit 2) found by the campaign.
func userErr(format string, args ...any) error { return usererr.New(usererr.Other, format, args...) }

// Binary is an instrumented, built test binary of one package.
type Binary struct {
	Path     string
	Package  string // import path
	Dir      string // package directory (the test's working directory)
	Sites    []pct.SiteInfo
	Vars     []pct.VarInfo // the variables of Q; nil when the analysis did not run
	SiteVars [][]int32     // per site id, the variables it may touch (nil: unknown, any)
	Analysis string        // why there is no site→variable table ("" when there is one)
	Module   string
	workDir  string
	root     string // module root, for module-relative positions
	instr    *instrument.Result
	fromTest bool
}

// Build instruments the package (and the dependency modules named in deps)
// and builds its test binary.
func Build(dir, pattern string, deps []string) (*Binary, error) {
	arg := pattern
	dir, pattern = splitPattern(dir, pattern)
	res, err := instrument.Instrument(instrument.Config{Dir: dir, Patterns: []string{pattern}, Deps: deps})
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
	b := &Binary{Path: filepath.Join(work, "pkg.test"), workDir: work, instr: res, Sites: res.Sites, Module: res.ModulePath, root: res.ModuleRoot}
	table, why := siteVarTable(res, pattern)
	if err := res.WriteSiteVars(table); err != nil {
		b.Close()
		return nil, err
	}
	b.SiteVars, b.Analysis = res.SiteVars(table), why
	if table != nil {
		b.Vars = table.Vars
	}
	if err := cachedBuild(res, pattern, b.Path); err != nil {
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

// Close removes the binary and the instrumented copy.
func (b *Binary) Close() {
	if dir := os.Getenv("GOPCT_KEEP"); dir != "" {
		// Debugging aid: keep the instrumented binary.
		os.Rename(b.Path, filepath.Join(dir, "pkg.test"))
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
	depth := 0
	for i, c := range run {
		switch c {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth == 0 {
				return run[:i], run[i+1:]
			}
		}
	}
	return run, ""
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
	cmd := exec.Command(b.Path, "-test.list", run)
	cmd.Dir = b.Dir
	out, err := cmd.Output()
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
	killed bool // stopped by us because another worker found a bug
	cfg    pct.Config
}

// Hunt runs the campaign for one test and returns its summary.
func (b *Binary) Hunt(p Plan, test string) (*results.Summary, error) {
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
		Workers: p.Workers, MaxSteps: p.MaxSteps, Timeout: int64(p.Timeout), MaxDelay: int64(p.MaxDelay), Race: p.Race, Stall: p.Stall.Seconds(), LazyTime: p.LazyTime}
	if p.Budget > 0 {
		from := start
		if !p.Start.IsZero() {
			from = p.Start
		}
		cfg.Deadline = from.Add(p.Budget).UnixNano()
	}
	applySets(&cfg, p.sets)
	if p.sets != nil && p.Log != nil {
		fmt.Fprintf(p.Log, "gopct: tracking %s\n", setNames(p.sets))
	}
	recs, err := b.runWorkers(cfg)
	if err != nil {
		return nil, err
	}
	s := &results.Summary{Test: test, Package: b.Package, Strategy: p.Spec.Name, Spec: p.Spec, Seed: p.Seed, Mode: "bubble"}
	var best *pct.BugReport
	for _, r := range recs {
		if r.Type == pct.RecDone {
			s.Executions += r.Executions
			s.Finished += r.Finished
			s.Abandoned += r.Abandoned
			s.Bounds = r.Bounds
			s.Complete = r.Complete
			s.Unmanaged += r.Unmanaged
			if s.UnmanagedAt == "" {
				s.UnmanagedAt = r.UnmanagedAt
			}
		}
		if r.Type == pct.RecBug && (best == nil || r.Bug.Execution < best.Execution) {
			best = r.Bug
		}
	}
	if rel, err := filepath.Rel(b.root, s.UnmanagedAt); err == nil && filepath.IsAbs(s.UnmanagedAt) && !strings.HasPrefix(rel, "..") {
		s.UnmanagedAt = filepath.ToSlash(rel) // module-relative, like the sites
	}
	if best != nil {
		tok := Token{Package: b.Package, Dir: b.Dir, Test: test, Sub: sub, Schedule: best.Schedule, Execution: best.Execution,
			Kind: best.Kind, Message: best.Message, LazyTime: p.LazyTime, Deps: p.Deps, Spec: p.Spec, MaxSteps: p.MaxSteps, Timeout: int64(p.Timeout), MaxDelay: int64(p.MaxDelay),
			Sites: cfg.Sites, Race: p.Race}
		if vars != nil {
			tok.Vars = p.Vars
		}
		s.Bug = b.bugWith(tok, best)
	}
	s.Seconds = time.Since(start).Seconds()
	return s, nil
}

func (b *Binary) bugWith(tok Token, r *pct.BugReport) *results.Bug {
	if rel, err := filepath.Rel(b.root, r.At); err == nil && filepath.IsAbs(r.At) && !strings.HasPrefix(rel, "..") {
		r.At = filepath.ToSlash(rel) // a panic's position, from its stack: module-relative like the sites
	}
	bug := &results.Bug{BugReport: *r, Replay: tok.Encode()}
	_, bug.Variables = variablesAtPreemptions(bug)
	bug.Threads = threadsConstrained(bug)
	return bug
}

// runWorkers starts cfg.Workers processes, stops the others once one finds
// a bug, and returns every worker's final records (bug and done).
func (b *Binary) runWorkers(cfg pct.Config) ([]pct.Record, error) {
	ws := make([]*worker, cfg.Workers)
	for i := range ws {
		c := cfg
		c.Worker = i
		w, err := b.start(c)
		if err != nil {
			return nil, err
		}
		ws[i] = w
	}
	var wg sync.WaitGroup
	found := make(chan struct{})
	var once sync.Once
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.err = w.cmd.Wait()
			w.output.Close()
			if hasBug(w.out) {
				once.Do(func() { close(found) })
			}
		}()
	}
	var mu sync.Mutex
	go func() {
		<-found
		mu.Lock()
		defer mu.Unlock()
		for _, w := range ws {
			w.killed = true
			w.cmd.Process.Kill()
		}
	}()
	wg.Wait()
	once.Do(func() { close(found) })
	mu.Lock()
	defer mu.Unlock()
	var all []pct.Record
	for _, w := range ws {
		if w.killed && !hasBug(w.out) {
			continue
		}
		recs, err := w.records()
		if err != nil {
			return nil, err
		}
		all = append(all, recs...)
	}
	return all, nil
}

func (b *Binary) start(cfg pct.Config) (*worker, error) {
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
	cmd := exec.Command(b.Path, "-test.run", "^"+regexp.QuoteMeta(cfg.Test)+"$", "-test.count=1", "-test.timeout=0")
	cmd.Dir = b.Dir
	cmd.Env = append(os.Environ(), "GOPCT_CONFIG="+cfgPath)
	cmd.Stdout, cmd.Stderr = output, output
	if err := cmd.Start(); err != nil {
		output.Close()
		return nil, err
	}
	return &worker{cmd: cmd, out: cfg.Out, output: output, cfg: cfg}, nil
}

func hasBug(path string) bool {
	recs, _ := readRecords(path)
	return hasBugRec(recs)
}

// records returns what a worker reported, or an error explaining why it
// reported nothing usable.
func (w *worker) records() ([]pct.Record, error) {
	recs, err := readRecords(w.out)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		switch r.Type {
		case pct.RecStall:
			return nil, userErr("the test made no progress: %s\n\n%s", stallAdvice, r.Message)
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
	out, _ := os.ReadFile(filepath.Join(filepath.Dir(w.out), "output.txt"))
	if strings.Contains(string(out), "synctest channel from outside bubble") {
		// Not the program's failure: a goroutine outside the execution's
		// bubble (started in init, or kept in package state by an earlier
		// execution) used a channel made inside it, which the Go runtime
		// forbids. The program is fine under go test.
		return nil, userErr("a goroutine gopct does not run inside the test's execution used a channel made inside it "+
			"(%s): typically a goroutine started in init or by an earlier test, or package-level state (a lazily started "+
			"worker pool) kept from one execution to the next. gopct runs every execution in a testing/synctest bubble and "+
			"cannot let goroutines outside it take part; start such goroutines inside the test", crashMessage(string(out), w.err))
	}
	exec, sched, err := pct.ReadCrashLog(w.cfg.CrashLog)
	if err != nil {
		return nil, fmt.Errorf("test process died without a report (%v):\n%s", w.err, tail(string(out), 4000))
	}
	bug := &pct.BugReport{Kind: pct.FailFatal, Message: crashMessage(string(out), w.err), Execution: exec,
		Schedule: sched.Encode(), Stack: tail(string(out), 8000)}
	n := (exec-w.cfg.First-w.cfg.Worker)/max(1, w.cfg.Workers) + 1
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
	last := ""
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "FAIL") && !strings.HasPrefix(l, "exit status") {
			last = l
			break
		}
	}
	return fmt.Sprintf("the test process died (%v); last output: %s", err, last)
}

const stallAdvice = `a goroutine is blocked where the testing/synctest bubble cannot see it
(network or file I/O, a system call, a mutex held inside code gopct does not instrument,
or a channel created outside the test function, e.g. in a package-level variable), or
it loops without reaching a scheduling point. gopct needs every blocking operation of
the test to happen on values created inside the test.`

func hasBugRec(recs []pct.Record) bool {
	for _, r := range recs {
		if r.Type == pct.RecBug {
			return true
		}
	}
	return false
}

func readRecords(path string) ([]pct.Record, error) {
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
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue // a line cut short by a killed writer
		}
		if r.Version != pct.SchemaVersion {
			return nil, fmt.Errorf("%s: record of schema version %d, gopct reads %d", path, r.Version, pct.SchemaVersion)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
