package campaign

import (
	"fmt"
	"hash/fnv"
	"io"
	"os/exec"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

// CIPlan is a time-budgeted smoke run over the tests of several packages.
type CIPlan struct {
	Dir      string
	Patterns []string      // package patterns, e.g. ./...
	Run      string        // only the tests (and suite methods) matching it, as go test -run
	Budget   time.Duration // for the whole run, builds included
	Shard    int           // this shard, 0 <= Shard < Shards
	Shards   int
	Seed     uint64 // base seed; each test's seed derives from it
	Base     Plan   // settings of each hunt (strategy, delay bound, timeout, deps, workers)
	Log      io.Writer
	// Store records each test's summary as it ends (nil: none); with
	// Resume, tests it records are not hunted again.
	Store *Store
}

// CIResult is what a CI run found.
type CIResult struct {
	Summaries []*results.Summary // in package, then test order
	Errors    []string           // packages that could not be hunted (build errors, cgo, ...)
	// Unbuilt counts the tests of packages whose build had not ended when
	// the budget ran out (each has a summary with no execution).
	Unbuilt int
}

// ciPackage is a package with tests, built.
type ciPackage struct {
	path, dir string
	testFiles []string            // its _test.go files
	declared  []string            // its tests as those files declare them (known before the build)
	suites    map[string][]string // its tests that run testify suites, and their methods
	bin       *Binary
	tests     []string
	err       error
}

// RunCI lists the packages with tests, keeps this shard's and builds them
// in parallel (cached) while it hunts the tests of those already built.
// The budget covers everything: each test's hunt gets an equal share of
// the time left, shared by the tests still to run, built or not (so a
// slow build or a slow machine shrinks the shares that follow, and a test
// that finds its bug early leaves its share to the others); no hunt and no
// build starts past the end, and the tests of a package whose build had
// not ended by then are reported as not run. Each test's seed derives
// from (base seed, package, test, shard), so that a failure seen in CI is
// reproduced by the printed replay, and a rerun of the same shard explores
// the same schedules.
func RunCI(p CIPlan) (*CIResult, error) {
	start := time.Now()
	end := start.Add(p.Budget - ciReserve(p.Budget))
	pkgs, err := listTestPackages(p.Dir, p.Patterns)
	if err != nil {
		return nil, err
	}
	sel, err := newCISelection(p.Run)
	if err != nil {
		return nil, err
	}
	r := &ciRun{plan: p, sel: sel, end: end, res: &CIResult{}}
	if pkgs, err = r.declare(pkgs); err != nil {
		return nil, err
	}
	pkgs = shardOf(pkgs, p.Shard, p.Shards)
	for _, pk := range pkgs {
		r.pending += len(pk.declared)
	}
	b := startBuilds(p, pkgs, end)
	defer b.abandon()
	err = r.huntAsBuilt(b, len(pkgs))
	for _, pk := range pkgs {
		if !b.received[pk] {
			r.notBuilt(pk)
		}
	}
	sort.SliceStable(r.res.Summaries, func(i, j int) bool {
		a, b := r.res.Summaries[i], r.res.Summaries[j]
		return a.Package < b.Package || a.Package == b.Package && a.Test < b.Test
	})
	return r.res, err
}

// ciReserve is the part of the budget kept for ending the run: the last
// hunt's workers exit after their deadline (a worker with race detection
// may hold up to 2 GB to free: 2.7 s at a load of 40), then the reports.
// 2%, at most 3 s.
func ciReserve(budget time.Duration) time.Duration { return min(budget/50, 3*time.Second) }

// minShare is the least time a test's hunt is given: less would end its
// workers before they start (a later test may then get none, and is
// reported as such).
const minShare = 200 * time.Millisecond

// ciRun is the state of a CI run.
type ciRun struct {
	plan    CIPlan
	sel     *ciSelection
	end     time.Time
	pending int // tests not hunted yet, built or not
	res     *CIResult
}

// huntAsBuilt hunts the tests of each package as its build ends, until
// every package is done or the budget is spent.
func (r *ciRun) huntAsBuilt(b *ciBuilds, n int) error {
	timer := time.NewTimer(time.Until(r.end))
	defer timer.Stop()
	for ; n > 0; n-- {
		select {
		case pk := <-b.built:
			b.received[pk] = true
			if err := r.huntPackage(pk); err != nil {
				return err
			}
		case <-timer.C:
			return nil
		}
	}
	return nil
}

// huntPackage hunts a built package's tests, each within its share.
func (r *ciRun) huntPackage(pk *ciPackage) error {
	tests := r.selected(pk.tests, pk)
	r.pending += len(tests) - len(pk.declared)
	if pk.err != nil {
		r.res.Errors = append(r.res.Errors, fmt.Sprintf("%s: %v", pk.path, pk.err))
		return nil
	}
	defer pk.bin.Close() // now, not at the end: the end of the budget is no time to remove files
	pk.bin.TestArgs = r.plan.Base.TestArgs
	for _, test := range tests {
		share := time.Until(r.end) / time.Duration(max(1, r.pending))
		r.pending--
		s, err := r.huntTest(pk, test, max(share, minShare))
		if err != nil {
			return err
		}
		if s == nil {
			continue
		}
		r.res.Summaries = append(r.res.Summaries, s)
		if r.plan.Log != nil {
			fmt.Fprintln(r.plan.Log, ciLine(s))
		}
	}
	return nil
}

// declare lists each package's tests as its files declare them, suites
// expanded and -run applied, before any build and before sharding. With
// -run, a package none of whose tests it selects is not built, and a
// pattern that selects no test of any shard is an error.
func (r *ciRun) declare(pkgs []*ciPackage) ([]*ciPackage, error) {
	var kept []*ciPackage
	for _, pk := range pkgs {
		parsed := parseTestFiles(pk.dir, pk.testFiles)
		pk.suites = suiteMethods(parsed)
		pk.declared = r.selected(declaredTests(parsed), pk)
		if r.plan.Run == "" || len(pk.declared) > 0 {
			kept = append(kept, pk)
		}
	}
	if len(kept) == 0 && r.plan.Run != "" {
		return nil, userErr("no test in %s matches -run %q", strings.Join(r.plan.Patterns, " "), r.plan.Run)
	}
	return kept, nil
}

// selected is the tests of a package this run hunts: suites expanded
// into their methods, then filtered by -run.
func (r *ciRun) selected(tests []string, pk *ciPackage) []string {
	return r.sel.filter(expandSuites(tests, pk.suites))
}

// huntTest hunts one test (or one method of a suite, "TestSuite/TestMethod")
// for its share, never past the run's end (a test reached past it gets a
// summary with no execution), or returns the summary a resumed run's
// results file records. A nil summary and error: the hunt failed (recorded
// in the errors).
func (r *ciRun) huntTest(pk *ciPackage, test string, share time.Duration) (*results.Summary, error) {
	p := r.plan
	plan, top := ForTest(ciHuntPlan(p, pk, test, share), test)
	plan.Run = r.sel.run(test) // the test or method exactly, then -run's deeper levels
	plan.Start = time.Now()
	if deadline := plan.Start.Add(plan.Budget); deadline.After(r.end) {
		plan.Budget = r.end.Sub(plan.Start)
	}
	planned := pk.bin.Planned(plan, top)
	if s := p.Store.Recorded(planned); s != nil {
		return s, nil
	}
	if plan.Budget <= 0 {
		return planned, nil // no time left: reported as no execution
	}
	p.Store.Attach(&plan, planned)
	s, err := pk.bin.Hunt(plan, top)
	if err != nil {
		r.res.Errors = append(r.res.Errors, fmt.Sprintf("%s %s: %v", pk.path, test, err))
		return nil, nil
	}
	return s, p.Store.Add(s)
}

// notBuilt reports the tests of a package whose build had not ended when
// the budget ran out.
func (r *ciRun) notBuilt(pk *ciPackage) {
	for _, test := range pk.declared {
		r.res.Unbuilt++
		s := &results.Summary{Test: test, Package: pk.path, Strategy: r.plan.Base.Spec.Name, Spec: r.plan.Base.Spec,
			Seed: TestSeed(r.plan.Seed, pk.path, test, r.plan.Shard), Mode: "bubble"}
		r.res.Summaries = append(r.res.Summaries, s)
		if r.plan.Log != nil {
			fmt.Fprintf(r.plan.Log, "?     %s %s: not run: its package was still building when the budget ran out: raise -budget\n", pk.path, test)
		}
	}
}

// ciHuntPlan is the plan of one test's hunt in a CI run.
func ciHuntPlan(p CIPlan, pk *ciPackage, test string, budget time.Duration) Plan {
	h := p.Base
	h.Dir, h.Package = pk.dir, "."
	h.Seed = TestSeed(p.Seed, pk.path, test, p.Shard)
	h.Budget = budget
	if h.Iters <= 0 {
		h.Iters = 1 << 30 // the budget decides
	}
	if h.Workers <= 0 {
		h.Workers = runtime.NumCPU()
	}
	if h.Chunk <= 0 {
		h.Chunk = DefaultChunk
	}
	return h
}

// exactRun is the -run pattern that selects exactly the test, or the
// suite method "TestSuite/TestMethod".
func exactRun(test string) string {
	levels := strings.Split(test, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// TestSeed derives a test's seed from the run's base seed, the package,
// the test and the shard.
func TestSeed(base uint64, pkg, test string, shard int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", base, pkg, test, shard)
	return h.Sum64()%1_000_000_000 + 1
}

func ciLine(s *results.Summary) string {
	switch {
	case s.Bug != nil:
		return fmt.Sprintf("BUG   %s %s: %s (%d executions, %.1fs)\n      reproduce: gopct replay %s",
			s.Package, s.Test, s.Bug.Kind, s.Executions, s.Seconds, s.Bug.Replay)
	case s.Executions == 0:
		// A first execution that outlasts its share may also be stuck where
		// the bubble cannot see (a socket's read): only a hunt lasts until
		// the stall watchdog says so (fresh36: memberlist's network tests).
		return fmt.Sprintf("?     %s %s: no execution ran within its share of the budget (%.1fs): raise -budget, or hunt it "+
			"alone (gopct hunt -run '^%s$'), which says when an execution is stuck in network or file I/O",
			s.Package, s.Test, s.Seconds, s.Test)
	case s.Inconclusive():
		return fmt.Sprintf("?     %s %s: only %d of %d executions finished (%.1fs)", s.Package, s.Test, s.Finished, s.Executions, s.Seconds)
	}
	return fmt.Sprintf("ok    %s %s: %d executions (%.1fs)", s.Package, s.Test, s.Executions, s.Seconds)
}

// listTestPackages lists the packages matching the patterns that have
// tests, in import-path order.
func listTestPackages(dir string, patterns []string) ([]*ciPackage, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return nil, userErr("go list %s: %s", strings.Join(patterns, " "), msg)
	}
	var pkgs []*ciPackage
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		if len(f) == 3 && strings.TrimSpace(f[2]) != "" {
			pkgs = append(pkgs, &ciPackage{path: f[0], dir: f[1], testFiles: strings.Fields(f[2])})
		}
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].path < pkgs[j].path })
	return pkgs, nil
}

// shardOf keeps the packages of shard i of n (by a hash of the import
// path, so that adding a package moves no other).
func shardOf(pkgs []*ciPackage, i, n int) []*ciPackage {
	if n <= 1 {
		return pkgs
	}
	var out []*ciPackage
	for _, pk := range pkgs {
		h := fnv.New32a()
		h.Write([]byte(pk.path))
		if int(h.Sum32()%uint32(n)) == i {
			out = append(out, pk)
		}
	}
	return out
}

// DefaultCIBase is the hunt every CI test gets: the portfolio (PCT with
// d=3 and the random walk in turn: a smoke run over code nobody has
// looked at needs what either finds, docs/STRATEGIES.md), the default
// delay bound and timeout.
func DefaultCIBase() Plan {
	return Plan{Spec: pct.Spec{Name: "portfolio", D: 3}, MaxDelay: DefaultMaxDelay, Timeout: DefaultTimeout,
		Stall: 20 * time.Second, Deps: []string{"auto"}, Race: true, CheckReplay: true}
}
