package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

func hunt(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hunt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := campaign.Plan{Timeout: campaign.DefaultTimeout, MaxDelay: campaign.DefaultMaxDelay}
	var jsonOut, verbose bool
	strategy, depth, vbound, tbound := "pct", 3, 1, 0
	var varNames, shard string
	var store campaign.Store
	var seed int64
	fs.StringVar(&p.Run, "run", "", "run only the tests matching this regexp (like go test -run)")
	fs.StringVar(&strategy, "strategy", strategy, "scheduling strategy: pct, pctvb (variable bounding), random, or portfolio (pct and random in turn, execution by execution)")
	fs.IntVar(&vbound, "v", vbound, "pctvb: variables tracked at a time (the v-subsets of the shared variables take turns, a chunk per worker each; 0: only sync operations are scheduling points)")
	fs.StringVar(&varNames, "vars", "", "track exactly these variables (comma-separated names, as gopct vars prints them): pctvb counts them; every strategy makes only the memory accesses that may touch them scheduling points (sync operations always are)")
	fs.IntVar(&tbound, "t", tbound, "thread bounding for pct and pctvb: priorities from random permutations of n+d-1 fragments (ISSTA'13 §4); 0: off")
	fs.IntVar(&depth, "d", depth, "PCT bug depth d (d-1 priority change points per execution)")
	fs.IntVar(&p.Iters, "iters", 1000, "executions per test")
	fs.Int64Var(&seed, "seed", 0, "random seed (0: pick one and print it)")
	fs.DurationVar(&p.Budget, "budget", 0, "wall-clock budget for the whole hunt, e.g. 30s (0: none)")
	fs.IntVar(&p.Workers, "workers", runtime.NumCPU(), "parallel test processes")
	fs.IntVar(&p.MaxSteps, "max-steps", 0, "scheduling steps after which an execution is given up (0: calibrated from the executions that finish)")
	shared := huntFlags(fs, &p)
	fs.DurationVar(&p.Stall, "stall", 20*time.Second, "real time without progress after which the test is declared blocked outside gopct's view")
	earlyTimers := fs.Bool("early-timers", true, "let timers fire while goroutines can still run (explores timeout paths)")
	fs.BoolVar(&p.Coverage, "coverage", false, "hash each execution's happens-before graph: the JSON summary gets the coverage curve (distinct classes against executions)")
	fs.BoolVar(&p.GoRace, "gorace", false, "also build with Go's -race: reports races between goroutines gopct does not manage (started by code it does not instrument)")
	fs.IntVar(&p.Chunk, "chunk", campaign.DefaultChunk, "executions per chunk: the unit workers and shards split (strategy state restarts at each, so the outcome does not depend on -workers or -shard)")
	fs.StringVar(&shard, "shard", "", "run shard i of N of the executions (i/N; default $JOB_COMPLETION_INDEX/$GOPCT_SHARDS or 0/1); gopct merge joins the shards' -results")
	fs.StringVar(&store.Path, "results", "", "append each test's summary (JSON lines) to this file as soon as it is hunted")
	fs.BoolVar(&store.Resume, "resume", false, "with -results: skip the tests whose hunt the file records (a killed campaign goes on where it stopped)")
	fs.BoolVar(&p.CheckReplay, "check-replay", true, "replay the bug's token in a fresh process before reporting it, and warn when it does not reproduce (JSON: bug.replayCheck)")
	fs.BoolVar(&jsonOut, "json", false, "print JSON lines; the last line is the summary")
	fs.BoolVar(&verbose, "verbose", false, "print progress on stderr, and every context switch of a long trace")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct hunt [flags] [package] [-args test-binary-arguments...]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	positional, testArgs := splitTestArgs(fs.Args())
	if len(positional) > 1 {
		fmt.Fprintf(stderr, "gopct hunt: one package at a time (got %d; the test binary's own arguments go after -args)\n", len(positional))
		return 2
	}
	if strategy != "pct" && strategy != "random" && strategy != "pctvb" && strategy != "portfolio" {
		fmt.Fprintf(stderr, "gopct hunt: unknown strategy %q (want pct, pctvb, random or portfolio)\n", strategy)
		return 2
	}
	if vbound < 0 || tbound < 0 || (tbound > 0 && strategy == "random") {
		fmt.Fprintf(stderr, "gopct hunt: -v and -t must not be negative, and -t needs pct, pctvb or portfolio\n")
		return 2
	}
	p.Spec = pct.Spec{Name: strategy}
	if strategy != "random" {
		p.Spec.D, p.Spec.T = depth, tbound
	}
	if strategy == "pctvb" {
		p.Spec.V = vbound
	}
	p.Vars = splitList(varNames)
	for _, f := range []struct {
		name string
		v    int
	}{{"iters", p.Iters}, {"d", depth}, {"workers", p.Workers}, {"chunk", p.Chunk}} {
		if f.v < 1 {
			fmt.Fprintf(stderr, "gopct hunt: -%s must be at least 1 (got %d)\n", f.name, f.v)
			return 2
		}
	}
	if p.MaxSteps < 0 || p.Timeout < 0 || p.MaxDelay < 0 {
		fmt.Fprintf(stderr, "gopct hunt: -max-steps, -timeout and -max-delay must not be negative\n")
		return 2
	}
	if _, err := regexp.Compile(p.Run); err != nil {
		// Checked here, before the build, to fail fast.
		fmt.Fprintf(stderr, "gopct hunt: bad -run regexp: %v\n", err)
		return 2
	}
	var err error
	if p.Shard, p.Shards, err = parseShard(shard); err != nil {
		fmt.Fprintf(stderr, "gopct hunt: bad -shard %q (want i/N with 0 <= i < N)\n", shard)
		return 2
	}
	if store.Resume && store.Path == "" {
		fmt.Fprintf(stderr, "gopct hunt: -resume needs -results FILE\n")
		return 2
	}
	p.Seed = uint64(seed)
	p.LazyTime = !*earlyTimers
	shared.apply(&p, testArgs)
	if seed == 0 {
		p.Seed = uint64(time.Now().UnixNano()%1_000_000 + 1)
	}
	p.Package = "."
	if len(positional) == 1 {
		p.Package = positional[0]
	}
	dir, err := os.Getwd()
	if err != nil {
		return fail(stderr, err)
	}
	p.Dir = dir
	if verbose {
		p.Log = stderr
	}
	results.FullTrace = verbose // every context switch of a long trace
	return runHunt(p, store, jsonOut, stdout, stderr)
}

func runHunt(p campaign.Plan, store campaign.Store, jsonOut bool, stdout, stderr io.Writer) int {
	p.Start = time.Now() // -budget covers the build and every test
	if err := store.Open(); err != nil {
		return fail(stderr, err)
	}
	logf(p.Log, "gopct: instrumenting and building %s\n", p.Package)
	bin, err := campaign.BuildWith(p.Dir, p.Package, campaign.BuildOptions{Deps: p.Deps, GoRace: p.GoRace})
	if err != nil {
		return fail(stderr, err)
	}
	defer bin.Close()
	bin.TestArgs = p.TestArgs
	if bin.Analysis != "" {
		logf(p.Log, "gopct: no points-to table, every memory access may touch any variable: %s\n", bin.Analysis)
	}
	tests, err := bin.Tests(p.Run)
	if err != nil {
		return fail(stderr, err)
	}
	if _, sub := campaign.SplitRun(p.Run); sub == "" {
		tests = campaign.ExpandSuites(bin.Dir, tests)
	}
	code := 0
	for i, test := range tests {
		if p.Budget > 0 && time.Since(p.Start) >= p.Budget {
			fmt.Fprintf(stderr, "gopct: budget %v spent; not hunted: %s\n", p.Budget, strings.Join(tests[i:], ", "))
			break
		}
		logf(p.Log, "gopct: hunting %s (%s, seed %d, %d workers)\n", test, p.Spec, p.Seed, p.Workers)
		hunt := bin.Hunt
		if p.Spec.Name == "pctvb" {
			hunt = bin.HuntVB
		}
		tp, top := campaign.ForTest(p, test)
		planned := bin.Planned(tp, top)
		s := store.Recorded(planned)
		if s != nil {
			logf(p.Log, "gopct: %s: recorded in %s, not hunted again (-resume)\n", test, store.Path)
		} else {
			q := tp
			store.Attach(&q, planned)
			if len(q.Done) > 0 {
				logf(p.Log, "gopct: %s: %d chunks recorded in %s, not run again (-resume)\n", test, len(q.Done), store.Path)
			}
			if s, err = huntWithProgress(hunt, q, top, stderr); err != nil {
				return fail(stderr, err)
			}
			if err := store.Add(s); err != nil {
				return fail(stderr, err)
			}
		}
		if jsonOut {
			json.NewEncoder(stdout).Encode(s)
		} else {
			results.WriteSummary(stdout, s)
			results.WriteDeaths(stdout, s)
		}
		switch {
		case s.Bug != nil:
			code = 1
		case (s.Inconclusive() || s.NothingRan()) && code == 0:
			code = 4
		}
	}
	return code
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// huntWithProgress hunts a test, with a progress line on stderr when it is
// a terminal.
func huntWithProgress(hunt func(campaign.Plan, string) (*results.Summary, error), p campaign.Plan, test string, stderr io.Writer) (*results.Summary, error) {
	f, ok := stderr.(*os.File)
	if !ok || !campaign.IsTerminal(f) {
		return hunt(p, test)
	}
	line := &campaign.ProgressLine{W: stderr, Budget: p.Budget}
	line.Start(test, p.Iters)
	p.Progress = line.Update
	defer line.Done()
	return hunt(p, test)
}

// sharedFlags are the flags of hunt and ci that set how each test is
// hunted and that need work after parsing (apply).
type sharedFlags struct {
	deps  *string
	short *bool
}

// huntFlags defines the flags that set how each test is hunted, shared by
// hunt and ci.
func huntFlags(fs *flag.FlagSet, p *campaign.Plan) *sharedFlags {
	fs.DurationVar(&p.Timeout, "timeout", p.Timeout, "the test's timeout in fake time, as go test -timeout: an execution whose clock passes it is a hang (0: none)")
	fs.DurationVar(&p.MaxDelay, "max-delay", p.MaxDelay, "longest scheduling delay a schedule may assume: a timer fires while goroutines can run only when none will have waited longer since it became runnable (0: any)")
	fs.BoolVar(&p.Race, "race", true, "report data races: accesses unordered by the program's synchronisation (happens-before)")
	return &sharedFlags{
		deps:  fs.String("deps", "auto", "dependency modules to instrument too, comma-separated; auto: golang.org/x/sync, github.com/stretchr/testify, github.com/benbjohnson/clock, go.uber.org/goleak, gomock (go.uber.org/mock, github.com/golang/mock) k8s.io/utils (its mock clock), github.com/valyala/bytebufferpool and github.com/libp2p/go-buffer-pool (their sync.Pool) when the tests import them, and the sync.Pool Get and Put calls of every other module; none: no dependency"),
		short: fs.Bool("short", false, "run the tests with -test.short, as go test -short (testing.Short() is true)"),
	}
}

// apply sets what the flags and the arguments after -args say.
func (f *sharedFlags) apply(p *campaign.Plan, testArgs []string) {
	p.Deps = depsList(*f.deps)
	p.TestArgs = nil
	if *f.short {
		p.TestArgs = append(p.TestArgs, "-test.short")
	}
	p.TestArgs = append(p.TestArgs, testArgs...)
}

// splitTestArgs splits the arguments left after the flags at -args, as go
// test does: what follows goes to the test binary.
func splitTestArgs(args []string) (positional, testArgs []string) {
	for i, a := range args {
		if a == "-args" || a == "--args" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// depsList is the modules a -deps value names (none: no module).
func depsList(deps string) []string {
	if deps == "none" {
		return nil
	}
	return splitList(deps)
}
