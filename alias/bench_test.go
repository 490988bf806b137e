package alias

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkAnalyzeNetHTTP measures analysing a test that imports net/http
// and encoding/json (alias/testdata/nethttp): the whole-program SSA has
// well over 100,000 instructions. The roots are the package initialisers
// and TestServe (Options.Run), as `gopct vars -run TestServe` would use.
//
// Reported per run of Analyze: analysis-s (wall time of Analyze: solve,
// constraint generation, Q and sites), gen-s (constraint generation alone),
// peak-heap-MB (live heap objects, sampled every millisecond while
// Analyze runs; it includes the loaded SSA program, reported alone as
// ssa-heap-MB), nodes, mean-set / max-set (points-to set sizes over the
// non-empty sets), ssa-instrs (every function of the whole program),
// reachable-instrs (the functions the analysis generated constraints
// for), load+ssa-s (loading, type checking and SSA construction, not part
// of the goal) and peak-RSS-MB (the process's high-water mark, loading
// included).
func BenchmarkAnalyzeNetHTTP(b *testing.B) {
	dir, _ := filepath.Abs("testdata/nethttp")
	t0 := time.Now()
	p, err := Load(LoadConfig{Dir: dir, Patterns: []string{"."}, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")})
	if err != nil {
		b.Fatal(err)
	}
	loadTime := time.Since(t0)
	instrs := p.CountInstructions()
	opts := Options{Run: regexp.MustCompile("^TestServe$")}
	runtime.GC()
	ssaHeap := heapObjects()
	var r *Result
	var peak uint64
	b.ResetTimer()
	for range b.N {
		stop := sampleHeap(&peak)
		r, err = Analyze(p, opts)
		stop()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(r.Sites) == 0 || r.Var("nethttpbench.defaultBank") == nil {
		b.Fatalf("the test's code was not reached: %d sites, Q=%d", len(r.Sites), len(r.Vars))
	}
	st := r.Stats
	b.ReportMetric(float64(instrs), "ssa-instrs")
	b.ReportMetric(float64(st.ReachableInstrs), "reachable-instrs")
	b.ReportMetric(st.Solve.Seconds(), "analysis-s")
	b.ReportMetric(st.Gen.Seconds(), "gen-s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(ssaHeap)/(1<<20), "ssa-heap-MB")
	b.ReportMetric(float64(st.Nodes), "nodes")
	b.ReportMetric(st.MeanSet, "mean-set")
	b.ReportMetric(float64(st.MaxSet), "max-set")
	b.ReportMetric(loadTime.Seconds(), "load+ssa-s")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MB")
	b.Logf("whole program: %d SSA instructions; reachable: %d functions, %d instructions; %d nodes, %d objects, %d edges, %d visits, %d SCC runs merged %d nodes; %d non-empty sets, mean %.2f, max %d; load+SSA %v; analysis %v (generation %v, Q and sites %v); Q=%d, sites=%d",
		instrs, st.ReachableFuncs, st.ReachableInstrs, st.Nodes, st.Objects, st.Edges, st.Processed,
		st.SCCRuns, st.Merged, st.Sets, st.MeanSet, st.MaxSet, loadTime, st.Solve, st.Gen, st.Post, len(r.Vars), len(r.Sites))
}

// heapObjects is the heap memory occupied by live and not yet swept objects.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleHeap records the largest heapObjects seen into *peak until stop is
// called.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			*peak = max(*peak, heapObjects())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); wg.Wait(); *peak = max(*peak, heapObjects()) }
}

// peakRSS reads the process's peak resident set size (VmHWM) in bytes.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
