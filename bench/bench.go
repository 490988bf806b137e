package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/pct"
)

// Options says what to measure.
type Options struct {
	Dir         string        // a module of bug programs (examples/ or corpus/)
	Only        []string      // package names to keep; empty: all
	Strategies  []string      // gopct strategies
	Seeds       int           // seeds per randomized method (median over them)
	Iters       int           // execution budget of one gopct run
	Budget      time.Duration // wall-clock budget of one run (gopct or stress)
	Stress      bool          // also measure go test -count, natively and with -race
	StressIters int           // iterations of one stress run
	Replays     int           // replays of each bug found (0: none)
	Log         io.Writer
}

// Case is one test to measure: a buggy test or a correct one.
type Case struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Buggy   bool   `json:"buggy"`
	Class   string `json:"class"`
	CVT     string `json:"cvt"`
	Kind    string `json:"kind"` // the failure kind the bug is expected to show
	Bug     string `json:"bug"`
}

// Run is one attempt of one method on one case.
type Run struct {
	Found   bool
	Execs   int     // executions up to and including the first failure (or all, if none)
	Seconds float64 // wall-clock time of the attempt
	Kind    string
	Replay  string // gopct replay token
}

// Result gathers the runs of every method on one case.
type Result struct {
	Case     Case
	Runs     map[string][]Run // method -> one run per seed
	Replayed int              // replays that reproduced the bug
	Replays  int
	// ReplayMiss says why the first replay that did not reproduce did not
	// (a divergence, a pass, or an error running it).
	ReplayMiss string
	Err        string
}

// Measure runs every method on every case of the module.
func Measure(o Options) ([]*Result, error) {
	cases, err := LoadCases(o.Dir)
	if err != nil {
		return nil, err
	}
	var out []*Result
	byPkg := groupByPackage(filter(cases, o.Only))
	for _, pkg := range sortedKeys(byPkg) {
		out = append(out, measurePackage(o, pkg, byPkg[pkg])...)
	}
	return out, nil
}

func measurePackage(o Options, pkg string, cases []Case) []*Result {
	var results []*Result
	bin, err := campaign.Build(filepath.Join(o.Dir, pkg), ".", nil)
	for _, c := range cases {
		r := &Result{Case: c, Runs: map[string][]Run{}}
		results = append(results, r)
		if err != nil {
			r.Err = firstLine(err.Error())
			continue
		}
		for _, s := range o.Strategies {
			r.Runs[s] = huntSeeds(o, bin, c, s)
		}
		if o.Replays > 0 {
			replayFirst(o, bin, r)
		}
		logf(o.Log, "%s\n", r.line(o))
	}
	if err == nil {
		bin.Close()
	}
	if o.Stress {
		stressPackage(o, pkg, results)
	}
	return results
}

func huntSeeds(o Options, bin *campaign.Binary, c Case, strategy string) []Run {
	var runs []Run
	for seed := 1; seed <= o.Seeds; seed++ {
		p := campaign.Plan{Spec: specFor(strategy), Iters: o.Iters, Seed: uint64(seed), Budget: o.Budget,
			Workers: 1, Stall: 20 * time.Second, MaxDelay: campaign.DefaultMaxDelay, Timeout: campaign.DefaultTimeout}
		s, err := bin.Hunt(p, c.Test)
		if err != nil {
			runs = append(runs, Run{Kind: "error: " + firstLine(err.Error())})
			continue
		}
		run := Run{Execs: s.Executions, Seconds: s.Seconds}
		if s.Bug != nil {
			run = Run{Found: true, Execs: s.Bug.Execution + 1, Seconds: s.Seconds, Kind: string(s.Bug.Kind), Replay: s.Bug.Replay}
		}
		runs = append(runs, run)
		if !c.Buggy && run.Found {
			break // one false report is enough to show
		}
	}
	return runs
}

// replayFirst replays the first bug found o.Replays times.
func replayFirst(o Options, bin *campaign.Binary, r *Result) {
	for _, s := range o.Strategies {
		for _, run := range r.Runs[s] {
			if !run.Found {
				continue
			}
			tok, err := campaign.DecodeToken(run.Replay)
			if err != nil {
				return
			}
			for i := 0; i < o.Replays; i++ {
				res, err := bin.Replay(tok)
				r.Replays++
				switch {
				case err == nil && res.Diverged == "" && res.Bug != nil:
					r.Replayed++
				case r.ReplayMiss != "":
				case err != nil:
					r.ReplayMiss = "error: " + firstLine(err.Error())
				case res.Diverged != "":
					r.ReplayMiss = "diverged: " + res.Diverged
				default:
					r.ReplayMiss = "passed"
				}
			}
			return
		}
	}
}

// LoadCases reads the module's case list: cases.json (examples) or
// corpus.json (corpus kernels, each with TestBug and TestFixed).
func LoadCases(dir string) ([]Case, error) {
	if data, err := os.ReadFile(filepath.Join(dir, "cases.json")); err == nil {
		var cs []Case
		if err := json.Unmarshal(data, &cs); err != nil {
			return nil, fmt.Errorf("%s/cases.json: %v", dir, err)
		}
		return cs, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s has neither cases.json nor corpus.json", dir)
	}
	if err != nil {
		return nil, err
	}
	var kernels []struct {
		Name, Class, Bug, Kind string
		C, V, T                int
	}
	if err := json.Unmarshal(data, &kernels); err != nil {
		return nil, fmt.Errorf("%s/corpus.json: %v", dir, err)
	}
	var cs []Case
	for _, k := range kernels {
		cvt := fmt.Sprintf("(%d,%d,%d)", k.C, k.V, k.T)
		cs = append(cs,
			Case{Package: k.Name, Test: "TestBug", Buggy: true, Class: k.Class, CVT: cvt, Kind: k.Kind, Bug: k.Bug},
			Case{Package: k.Name, Test: "TestFixed", Class: k.Class})
	}
	return cs, nil
}

func filter(cs []Case, only []string) []Case {
	if len(only) == 0 {
		return cs
	}
	keep := map[string]bool{}
	for _, o := range only {
		keep[o] = true
	}
	var out []Case
	for _, c := range cs {
		if keep[c.Package] {
			out = append(out, c)
		}
	}
	return out
}

func groupByPackage(cs []Case) map[string][]Case {
	m := map[string][]Case{}
	for _, c := range cs {
		m[c.Package] = append(m[c.Package], c)
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// specFor is the strategy spec bench uses for a strategy name: PCT at the
// depth of the examples' bugs (d=3), the portfolio's PCT too, the others
// as they come.
func specFor(name string) pct.Spec {
	if name == "pct" || name == "portfolio" {
		return pct.Spec{Name: name, D: 3}
	}
	return pct.Spec{Name: name}
}
