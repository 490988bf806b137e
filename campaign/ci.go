package campaign

import (
	"fmt"
	"hash/fnv"
	"io"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

// CIPlan is a time-budgeted smoke run over the tests of several packages.
type CIPlan struct {
	Dir      string
	Patterns []string      // package patterns, e.g. ./...
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
	Summaries []*results.Summary
	Errors    []string // packages that could not be hunted (build errors, cgo, ...)
}

// ciPackage is a package with tests, built.
type ciPackage struct {
	path, dir string
	bin       *Binary
	tests     []string
	err       error
}

// RunCI lists the packages with tests, keeps this shard's, builds them in
// parallel (cached), splits the remaining budget evenly over their tests,
// and hunts each under the base plan with a seed derived from (base seed,
// package, test, shard), so that a failure seen in CI is reproduced by the
// printed replay, and a rerun of the same shard explores the same
// schedules.
func RunCI(p CIPlan) (*CIResult, error) {
	start := time.Now()
	pkgs, err := listTestPackages(p.Dir, p.Patterns)
	if err != nil {
		return nil, err
	}
	pkgs = shardOf(pkgs, p.Shard, p.Shards)
	buildAll(p, pkgs)
	defer func() {
		for _, pk := range pkgs {
			if pk.bin != nil {
				pk.bin.Close()
			}
		}
	}()
	res := &CIResult{}
	n := 0
	for _, pk := range pkgs {
		if pk.err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", pk.path, pk.err))
		}
		n += len(pk.tests)
	}
	if n == 0 {
		return res, nil
	}
	left := n
	for _, pk := range pkgs {
		for _, test := range pk.tests {
			// The budget left is shared by the tests left: a test that
			// finds its bug early leaves its share to the others.
			per := (p.Budget - time.Since(start)) / time.Duration(left)
			left--
			plan := ciHuntPlan(p, pk, test, per)
			planned := pk.bin.Planned(plan, test)
			s := p.Store.Recorded(planned)
			if s == nil {
				p.Store.Attach(&plan, planned)
				var err error
				if s, err = pk.bin.Hunt(plan, test); err != nil {
					res.Errors = append(res.Errors, fmt.Sprintf("%s %s: %v", pk.path, test, err))
					continue
				}
				if err := p.Store.Add(s); err != nil {
					return res, err
				}
			}
			res.Summaries = append(res.Summaries, s)
			if p.Log != nil {
				fmt.Fprintln(p.Log, ciLine(s))
			}
		}
	}
	return res, nil
}

// ciHuntPlan is the plan of one test's hunt in a CI run.
func ciHuntPlan(p CIPlan, pk *ciPackage, test string, budget time.Duration) Plan {
	h := p.Base
	h.Dir, h.Package, h.Run = pk.dir, ".", "^"+test+"$"
	h.Seed = TestSeed(p.Seed, pk.path, test, p.Shard)
	h.Budget = max(budget, 100*time.Millisecond)
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
		return fmt.Sprintf("?     %s %s: no execution ran within its share of the budget (%.1fs): raise -budget", s.Package, s.Test, s.Seconds)
	case s.Inconclusive():
		return fmt.Sprintf("?     %s %s: only %d of %d executions finished (%.1fs)", s.Package, s.Test, s.Finished, s.Executions, s.Seconds)
	}
	return fmt.Sprintf("ok    %s %s: %d executions (%.1fs)", s.Package, s.Test, s.Executions, s.Seconds)
}

// listTestPackages lists the packages matching the patterns that have
// tests, in import-path order.
func listTestPackages(dir string, patterns []string) ([]*ciPackage, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}"}, patterns...)
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
		if len(f) == 4 && (f[2] != "0" || f[3] != "0") {
			pkgs = append(pkgs, &ciPackage{path: f[0], dir: f[1]})
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

// buildAll builds the packages in parallel (the build cache makes a
// rebuild of unchanged code cheap) and lists their tests.
func buildAll(p CIPlan, pkgs []*ciPackage) {
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	var wg sync.WaitGroup
	for _, pk := range pkgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			pk.bin, pk.err = Build(pk.dir, ".", p.Base.Deps)
			if pk.err == nil {
				pk.tests, pk.err = pk.bin.Tests("")
			}
		}()
	}
	wg.Wait()
}

// DefaultCIBase is the hunt every CI test gets: PCT with d=3, the default
// delay bound and timeout.
func DefaultCIBase() Plan {
	return Plan{Spec: pct.Spec{Name: "pct", D: 3}, MaxDelay: DefaultMaxDelay, Timeout: DefaultTimeout,
		Stall: 20 * time.Second, Deps: []string{"auto"}, Race: true}
}
