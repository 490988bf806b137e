package alias

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkAnalyzeNetHTTP measures loading and analysing a test that
// imports net/http and encoding/json: the whole-program SSA has well over
// 100,000 instructions. Reported: the analysis time per op (solve only),
// load+SSA time, instruction counts and the peak resident memory.
func BenchmarkAnalyzeNetHTTP(b *testing.B) {
	dir, _ := filepath.Abs("testdata/nethttp")
	t0 := time.Now()
	p, err := Load(LoadConfig{Dir: dir, Patterns: []string{"."}, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")})
	if err != nil {
		b.Fatal(err)
	}
	loadTime := time.Since(t0)
	instrs := p.CountInstructions()
	var r *Result
	b.ResetTimer()
	for range b.N {
		r, err = Analyze(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(instrs), "ssa-instrs")
	b.ReportMetric(float64(r.Stats.ReachableInstrs), "reachable-instrs")
	b.ReportMetric(loadTime.Seconds(), "load+ssa-s")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MB")
	b.Logf("whole program: %d SSA instructions; reachable: %d functions, %d instructions; %d nodes, %d objects, %d visits, %d SCC runs merged %d nodes; load+SSA %v, solve %v; Q=%d, sites=%d",
		instrs, r.Stats.ReachableFuncs, r.Stats.ReachableInstrs, r.Stats.Nodes, r.Stats.Objects, r.Stats.Processed,
		r.Stats.SCCRuns, r.Stats.Merged, loadTime, r.Stats.Solve, len(r.Vars), len(r.Sites))
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
