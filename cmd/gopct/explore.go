package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

// exploreFlags are the flags explore and classify share.
type exploreFlags struct {
	plan    campaign.Plan
	c       int
	v, t, l int
	workers int
	count   string
	noPrune bool
	json    bool
}

func newExploreFlags(name string, stderr io.Writer, defC int) (*flag.FlagSet, *exploreFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &exploreFlags{}
	fs.StringVar(&f.plan.Run, "run", "", "only the tests matching this regexp (like go test -run)")
	fs.IntVar(&f.c, "c", defC, "largest number of preemptions explored (context bound)")
	fs.BoolVar(&f.noPrune, "no-prune", false, "explore without happens-before pruning")
	fs.StringVar(&f.count, "count", campaign.CountCHESS, "how preemptions are counted: chess (every switch away from a goroutine that could continue) or issta (priority changes: ISSTA'13 Algorithm 1)")
	fs.IntVar(&f.t, "t", 0, "thread bound (with -count issta): explore only a family of priority orders that puts every T goroutines in every order (0: all orders)")
	fs.IntVar(&f.l, "l", 0, "loop-iteration bound of heap variables, with -v: a heap variable is an allocation site, call stack and iteration: the first L-1 objects of a site and stack in an execution are a variable each, the later ones one more (0: a variable per allocation site)")
	fs.IntVar(&f.workers, "workers", 1, "worker processes sharing the search's work queue (the outcome and counts do not depend on it)")
	fs.DurationVar(&f.plan.Budget, "budget", 0, "wall-clock budget per test (0: none)")
	fs.IntVar(&f.plan.MaxSteps, "max-steps", 0, "steps after which an execution is given up (0: calibrated)")
	fs.DurationVar(&f.plan.MaxDelay, "max-delay", campaign.DefaultMaxDelay, "longest scheduling delay a schedule may assume")
	fs.DurationVar(&f.plan.Timeout, "timeout", campaign.DefaultTimeout, "the test's timeout in fake time")
	// Race detection is on by default in explore, as in hunt and ci;
	// classify looks for the smallest bound of the test's own failure.
	fs.BoolVar(&f.plan.Race, "race", name == "explore", "report data races (explore: on by default; classify: off, it classifies the test's own failure)")
	fs.BoolVar(&f.json, "json", false, "print JSON lines; the last line is the summary")
	return fs, f
}

// setup checks the flags and fills the plan's common fields.
func (f *exploreFlags) setup(fs *flag.FlagSet, name string, stderr io.Writer) bool {
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "gopct %s: one package at a time (got %d)\n", name, fs.NArg())
		return false
	}
	if f.c < 0 || f.c > 20 {
		fmt.Fprintf(stderr, "gopct %s: -c must be between 0 and 20 (got %d)\n", name, f.c)
		return false
	}
	strategy := "exhaustive"
	switch {
	case f.count == campaign.CountISSTA:
		strategy = campaign.ISSTASearch
	case f.count != campaign.CountCHESS:
		fmt.Fprintf(stderr, "gopct %s: -count must be chess or issta (got %q)\n", name, f.count)
		return false
	case f.t != 0:
		fmt.Fprintf(stderr, "gopct %s: -t bounds the priority orders of the ISSTA search: use it with -count issta\n", name)
		return false
	}
	if f.t < 0 || f.t == 1 || f.t > 8 {
		fmt.Fprintf(stderr, "gopct %s: -t must be 0 (all orders) or between 2 and 8 (got %d)\n", name, f.t)
		return false
	}
	if f.l < 0 || f.l > 16 {
		fmt.Fprintf(stderr, "gopct %s: -l must be between 0 and 16 (got %d)\n", name, f.l)
		return false
	}
	if f.workers < 1 || f.workers > 64 {
		fmt.Fprintf(stderr, "gopct %s: -workers must be between 1 and 64 (got %d)\n", name, f.workers)
		return false
	}
	p := &f.plan
	p.Spec = pct.Spec{Name: strategy, C: f.c, T: f.t, NoPrune: f.noPrune}
	p.Workers, p.Seed, p.Stall, p.Loop = f.workers, 1, 20*time.Second, f.l
	p.Package = "."
	if fs.NArg() == 1 {
		p.Package = fs.Arg(0)
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "gopct %s: %v\n", name, err)
		return false
	}
	p.Dir = dir
	p.Deps = []string{"auto"}
	return true
}

func explore(args []string, stdout, stderr io.Writer) int {
	fs, f := newExploreFlags("explore", stderr, 2)
	fs.IntVar(&f.v, "v", -1, "variable bound: search v = 0, 1, ..., V, each v-subset of the shared variables in turn (-1: no variable bounding)")
	fs.BoolVar(&f.plan.AllBugs, "all", false, "go on after a bug and list every distinct bug")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct explore [-c C] [-v V [-l L]] [-t T] [-count chess|issta] [-workers W] [-run RE] [-json] [-all] [package]\n\n"+
			"Explores every schedule with at most C preemptions, fewest first, with happens-before pruning.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if !f.setup(fs, "explore", stderr) {
		return 2
	}
	if f.v > 8 {
		fmt.Fprintf(stderr, "gopct explore: -v must be at most 8 (got %d)\n", f.v)
		return 2
	}
	if f.l > 0 && f.v < 0 {
		fmt.Fprintln(stderr, "gopct explore: -l bounds the heap variables that variable bounding chooses from: use it with -v")
		return 2
	}
	bin, tests, code := buildFor(f.plan, stderr)
	if bin == nil {
		return code
	}
	defer bin.Close()
	for _, test := range tests {
		xs, err := bin.ExploreBounded(f.plan, test, f.v)
		if err != nil {
			return fail(stderr, err)
		}
		for _, x := range xs {
			writeExploration(stdout, x, f)
			switch {
			case x.Summary.Bug != nil || len(x.Bugs) > 0:
				code = 1
			case code == 0 && inconclusive(x.Summary):
				code = 4
			}
		}
	}
	return code
}

// inconclusive is hunt's exit 4 for a search: fewer than half of its
// executions ran to their end, not counting the pruned ones (which are
// abandoned on purpose).
func inconclusive(s *results.Summary) bool {
	pruned := 0
	for _, b := range s.Bounds {
		pruned += b.Pruned
	}
	run := s.Executions - pruned
	return run > 0 && 2*(s.Abandoned-pruned) > run
}

// writeExploration prints one search: with -json its bugs (-all), then
// its summary, one JSON line each; otherwise readably.
func writeExploration(w io.Writer, x campaign.Exploration, f *exploreFlags) {
	s := x.Summary
	if f.json {
		enc := json.NewEncoder(w)
		if x.Variables != nil {
			enc.Encode(map[string]any{"variables": x.Variables, "v": len(x.Variables)})
		}
		for _, b := range x.Bugs {
			enc.Encode(map[string]any{"bug": b})
		}
		enc.Encode(s)
		return
	}
	if x.Variables != nil {
		fmt.Fprintf(w, "variables tracked (v=%d): %v\n", len(x.Variables), x.Variables)
	}
	writeExplore(w, s, f.c, f.count)
	for i, b := range x.Bugs {
		one := *s
		one.Bug = b
		fmt.Fprintf(w, "\ndistinct bug %d of %d:\n", i+1, len(x.Bugs))
		results.WriteSummary(w, &one)
	}
}

// writeExplore prints the per-bound table, then the bug or the bound reached.
func writeExplore(w io.Writer, s *results.Summary, c int, count string) {
	rows := [][]string{}
	for _, b := range s.Bounds {
		rows = append(rows, []string{fmt.Sprint(b.Bound), fmt.Sprint(b.Executed), fmt.Sprint(b.Pruned), fmt.Sprint(b.Classes)})
	}
	fmt.Fprintf(w, "exhaustive search of %s %s (%s):\n", s.Package, s.Test, campaign.CountText(count))
	results.WriteTable(w, []string{"c", "schedules executed", "pruned", "HB classes"}, rows, false)
	if n := len(s.Coverage); n > 0 {
		fmt.Fprintf(w, "%d distinct happens-before classes in %d schedules\n", s.Coverage[n-1].Classes, s.Coverage[n-1].Executions)
	}
	switch {
	case s.Bug != nil:
		results.WriteSummary(w, s)
	case s.Complete:
		fmt.Fprintf(w, "ok    %s %s: no bug up to c=%d (%d schedules; search complete)\n", s.Package, s.Test, c, s.Executions)
	default:
		fmt.Fprintf(w, "?     %s %s: no bug in %d schedules, but the search stopped before c=%d was exhausted (budget)\n",
			s.Package, s.Test, s.Executions, c)
	}
}

func classify(args []string, stdout, stderr io.Writer) int {
	fs, f := newExploreFlags("classify", stderr, 4)
	fs.BoolVar(&f.plan.TSearch, "tsearch", false, "also find the smallest thread bound T at which the ISSTA search (-count issta -t T) fails with the classified c")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct classify [-c MAX] [-count chess|issta] [-t T] [-tsearch] [-workers W] [-run RE] [-json] [package]\n       gopct classify [-c MAX] [-json] TOKEN\n\n"+
			"Finds the smallest (c, v, t) at which each test fails, by exhaustive search up to MAX preemptions;\n"+
			"with a replay token, for the token's test, and the (c, v, t) of the token's own schedule.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if !f.setup(fs, "classify", stderr) {
		return 2
	}
	if f.l != 0 {
		fmt.Fprintln(stderr, "gopct classify: -l is not supported: classify reads v off failing schedules, by allocation site; use gopct explore -v V -l L")
		return 2
	}
	if fs.NArg() == 1 && strings.HasPrefix(fs.Arg(0), "gopct1.") {
		return classifyToken(fs.Arg(0), f, stdout, stderr)
	}
	bin, tests, code := buildFor(f.plan, stderr)
	if bin == nil {
		return code
	}
	defer bin.Close()
	for _, test := range tests {
		c, err := bin.Classify(f.plan, test, f.c)
		if err != nil {
			return fail(stderr, err)
		}
		code = max(code, writeClassification(stdout, c, f.json))
	}
	return code
}

// classifyToken classifies the test of a replay token (and reports the
// (c, v, t) of the token's own schedule).
func classifyToken(token string, f *exploreFlags, stdout, stderr io.Writer) int {
	tok, err := campaign.DecodeToken(token)
	if err != nil {
		return fail(stderr, err)
	}
	p := campaign.TokenPlan(f.plan, tok)
	bin, err := campaign.Build(p.Dir, p.Package, p.Deps)
	if err != nil {
		return fail(stderr, err)
	}
	defer bin.Close()
	c, err := bin.ClassifyToken(p, tok, f.c)
	if err != nil {
		return fail(stderr, err)
	}
	return writeClassification(stdout, c, f.json)
}

// writeClassification prints one classification and returns its exit
// code (1: the test fails within the bounds).
func writeClassification(w io.Writer, c *campaign.Classification, asJSON bool) int {
	if asJSON {
		json.NewEncoder(w).Encode(c)
	} else {
		fmt.Fprintln(w, c)
		if c.Bug != nil {
			fmt.Fprintf(w, "\nreplay:\n  gopct replay %s\n", c.Replay)
		}
	}
	if c.Bug != nil {
		return 1
	}
	return 0
}

// buildFor builds the plan's package and lists its tests; on failure it
// returns a nil binary and the exit code.
func buildFor(p campaign.Plan, stderr io.Writer) (*campaign.Binary, []string, int) {
	bin, err := campaign.Build(p.Dir, p.Package, p.Deps)
	if err != nil {
		return nil, nil, fail(stderr, err)
	}
	tests, err := bin.Tests(p.Run)
	if err != nil {
		bin.Close()
		return nil, nil, fail(stderr, err)
	}
	return bin, tests, 0
}
