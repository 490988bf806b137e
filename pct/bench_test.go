package pct

import (
	"sync"
	"testing"
	"time"
)

// Benchmarks of the scheduler. Each runs a program in a child process under
// control and reports the cost measured inside that process (the campaign's
// own elapsed time, without process start-up), next to a native run of the
// same code measured in the same benchmark, as a ratio.

func init() {
	strategies["alternate"] = func(Spec) (Strategy, error) { return &alternate{}, nil }
}

// alternate switches to the next enabled goroutine at every point: it makes
// every scheduling point a context switch.
type alternate struct{}

func (alternate) Begin(int, *Rand) bool { return true }
func (alternate) Next(d *Decision) int {
	for i, g := range d.Choices {
		if d.Cur != nil && g.id > d.Cur.id {
			return i
		}
	}
	if len(d.Choices) == 0 {
		return PassTime
	}
	return 0
}
func (alternate) Pick(*Decision, int) int { return 0 }
func (alternate) End(ExecOutcome)         {}
func (alternate) Spec() Spec              { return Spec{Name: "alternate"} }

const pointsPerExec = 20000

var sink int

func TestProgPoints(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		for i := 0; i < pointsPerExec; i++ {
			sink += Load(sR, &counter)
		}
	})
}

func TestProgPingPong(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			for i := 0; i < pointsPerExec/2; i++ {
				sink += Load(sR, &counter)
			}
			WGDone(sWG, &wg)
		})
		for i := 0; i < pointsPerExec/2; i++ {
			sink += Load(sR, &counter)
		}
		WGWait(sWG, &wg)
	})
}

// twoGoroutines is a typical small test: two goroutines update a
// mutex-protected counter, the test waits and checks.
func twoGoroutines(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	WGAdd(sWG, &wg, 2)
	for i := 0; i < 2; i++ {
		Go(sGo, func() {
			Lock(sLock, &mu)
			Store(sW, &n, Load(sR, &n)+1)
			Unlock(sUnlock, &mu)
			WGDone(sWG, &wg)
		})
	}
	WGWait(sWG, &wg)
	if n != 2 {
		TError(sFail, t, "Errorf", "n = %d", n)
	}
}

func TestProgTwo(t *testing.T) {
	skipNative(t)
	RunTest(t, twoGoroutines)
}

// benchCampaign runs iters executions of prog and returns the in-process
// elapsed time.
func benchCampaign(b *testing.B, prog, strategy string, iters int) time.Duration {
	recs := campaignB(b, prog, Config{Spec: testSpec(strategy), Seed: 1, Iters: iters})
	done := recs[len(recs)-1]
	if done.Executions != iters {
		b.Fatalf("%s: %d executions, want %d", prog, done.Executions, iters)
	}
	return done.Elapsed
}

func BenchmarkPointNoSwitch(b *testing.B) {
	iters := max(1, b.N/pointsPerExec)
	el := benchCampaign(b, "TestProgPoints", "pct", iters)
	perPoint := float64(el.Nanoseconds()) / float64(iters*pointsPerExec)
	native := nativeLoop(iters * pointsPerExec)
	b.ReportMetric(perPoint, "ns/point")
	b.ReportMetric(perPoint/native, "x-native-load")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkPointSwitch(b *testing.B) {
	iters := max(1, b.N/pointsPerExec)
	el := benchCampaign(b, "TestProgPingPong", "alternate", iters)
	perSwitch := float64(el.Nanoseconds()) / float64(iters*pointsPerExec)
	b.ReportMetric(perSwitch, "ns/switch")
	b.ReportMetric(perSwitch/chanHandoff(10000), "x-chan-handoff")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkExecutions(b *testing.B) {
	iters := max(100, b.N)
	el := benchCampaign(b, "TestProgTwo", "pct", iters)
	perSec := float64(iters) / el.Seconds()
	native := nativeExecutions(b, 2000)
	b.ReportMetric(perSec, "execs/s")
	b.ReportMetric(native, "native-execs/s")
	b.ReportMetric(native/perSec, "x-slower-than-native")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkFingerprint measures what the path fingerprint and the trail
// (trail.go) cost: executions per second of the two-goroutine test and
// nanoseconds per scheduling point of a memory-bound one, with the
// fingerprint on and off, in alternating rounds of the same run (best of
// five each). Times are the worker processes' CPU time (user and system):
// on a loaded machine their wall time is mostly other processes' (at load
// 40 the wall-time ratio swung from -47% to +27%).
func BenchmarkFingerprint(b *testing.B) {
	iters := max(100, b.N)
	var on, off, onPt, offPt time.Duration
	for range 5 {
		for _, noFP := range []bool{false, true} {
			cfg := Config{Spec: testSpec("pct"), Seed: 1, Iters: iters, NoFingerprint: noFP}
			el := cpuOf(b, "TestProgTwo", cfg)
			pcfg := Config{Spec: testSpec("pct"), Seed: 1, Iters: 20, NoFingerprint: noFP}
			pt := cpuOf(b, "TestProgPoints", pcfg)
			if noFP {
				off, offPt = best(off, el), best(offPt, pt)
			} else {
				on, onPt = best(on, el), best(onPt, pt)
			}
		}
	}
	b.ReportMetric(float64(iters)/on.Seconds(), "execs/cpu-s-fp")
	b.ReportMetric(float64(iters)/off.Seconds(), "execs/cpu-s-nofp")
	b.ReportMetric(100*(on.Seconds()/off.Seconds()-1), "%-slower-execs")
	b.ReportMetric(float64(onPt.Nanoseconds())/(20*pointsPerExec), "cpu-ns/point-fp")
	b.ReportMetric(float64(offPt.Nanoseconds())/(20*pointsPerExec), "cpu-ns/point-nofp")
	b.ReportMetric(100*(onPt.Seconds()/offPt.Seconds()-1), "%-slower-points")
	b.ReportMetric(0, "ns/op")
}

// cpuOf runs a campaign of cfg.Iters executions and returns its worker's
// CPU time.
func cpuOf(b *testing.B, prog string, cfg Config) time.Duration {
	if c, _ := loadConfig(); c != nil {
		b.Skip()
	}
	recs, cpu := campaignCPU(b, prog, cfg)
	elapsed(b, recs, cfg.Iters)
	return cpu
}

func elapsed(b *testing.B, recs []Record, iters int) time.Duration {
	done := recs[len(recs)-1]
	if done.Executions != iters {
		b.Fatalf("%d executions, want %d", done.Executions, iters)
	}
	return done.Elapsed
}

func best(a, b time.Duration) time.Duration {
	if a == 0 || b < a {
		return b
	}
	return a
}

func nativeLoop(n int) float64 {
	start := time.Now()
	for i := 0; i < n; i++ {
		sink += Load(sR, &counter)
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

func chanHandoff(n int) float64 {
	a, c := make(chan struct{}), make(chan struct{})
	go func() {
		for range a {
			c <- struct{}{}
		}
	}()
	start := time.Now()
	for i := 0; i < n; i++ {
		a <- struct{}{}
		<-c
	}
	close(a)
	return float64(time.Since(start).Nanoseconds()) / float64(2*n)
}

// nativeExecutions runs the same test body natively (no control, no
// bubble) and returns executions per second.
func nativeExecutions(b *testing.B, n int) float64 {
	t := &testing.T{}
	start := time.Now()
	for i := 0; i < n; i++ {
		twoGoroutines(t)
	}
	return float64(n) / time.Since(start).Seconds()
}

func campaignB(b *testing.B, prog string, cfg Config) []Record {
	if c, _ := loadConfig(); c != nil {
		b.Skip()
	}
	return campaignTB(b, prog, cfg)
}

// BenchmarkRaceDetection: executions per second of a memory-bound program
// (TestProgLongCompute's loop, shortened: TestProgPoints, 20,000 accesses)
// and of the two-goroutine program, with race detection on, as a ratio to
// the same campaign with it off, measured in the same run.
func BenchmarkRaceDetection(b *testing.B) {
	for _, prog := range []string{"TestProgPoints", "TestProgTwo"} {
		iters := max(20, b.N/100)
		run := func(race bool) time.Duration {
			recs := campaignB(b, prog, Config{Spec: testSpec("pct"), Seed: 1, Iters: iters, Race: race})
			return recs[len(recs)-1].Elapsed
		}
		off, on := run(false), run(true)
		b.ReportMetric(float64(on)/float64(off), prog+"-x-slower-with-race")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkInactiveSite measures memory accesses whose sites the gate
// switched off (a run that tracks other variables) against the plain
// accesses they replace, in the same run: loads summed (independent
// accesses) and a read-modify-write chain through memory. Two baselines:
// the plain loop alone, where the compiler keeps the variables in
// registers (x-plain-*), and the same loop with a call on a path never
// taken, which keeps them in memory as the gated loop's outlined
// scheduling point does (x-mem-*; what a loop that calls any function
// pays). The loops run in alternating rounds and each keeps its fastest
// round: on a loaded machine a round that was preempted says nothing about
// the access.
func BenchmarkInactiveSite(b *testing.B) {
	defer activateMemory(nil, nil)
	// No site chosen. (Choosing no variable, activateMemory(nil, []int{}),
	// would leave these sites on: the harness has no site->variable table,
	// so each may touch any variable. Before this check the benchmark
	// measured sites that were on, outside an execution: 2.7 ns per load.)
	activateMemory([]int{}, nil)
	if memoryOn(sR) || memoryOn(sW) {
		b.Fatal("the benchmark's sites are on")
	}
	const rounds, n = 40, 1 << 18
	loops := []func(int){gatedLoadLoop, plainLoadLoop, memLoadLoop, gatedRMWLoop, plainRMWLoop, memRMWLoop}
	best := make([]float64, len(loops))
	for i, loop := range loops {
		best[i] = fastest(rounds, n, loop)
	}
	for range rounds { // interleaved: every loop sees the same load
		for i, loop := range loops {
			best[i] = min(best[i], perAccess(n, loop))
		}
	}
	loads, plainLoads, memLoads, rmw, plainRMW, memRMW := best[0], best[1], best[2], best[3], best[4], best[5]
	b.ReportMetric(loads, "ns/load")
	b.ReportMetric(loads/plainLoads, "x-plain-load")
	b.ReportMetric(loads/memLoads, "x-mem-load")
	b.ReportMetric(rmw, "ns/rmw")
	b.ReportMetric(rmw/plainRMW, "x-plain-rmw")
	b.ReportMetric(rmw/memRMW, "x-mem-rmw")
	b.ReportMetric(0, "ns/op")
}

// fastest is the lowest time per access of rounds runs of loop(n).
func fastest(rounds, n int, loop func(int)) float64 {
	best := perAccess(n, loop)
	for range rounds - 1 {
		best = min(best, perAccess(n, loop))
	}
	return best
}

//go:noinline
func gatedLoadLoop(n int) {
	for i := 0; i < n; i++ {
		sink += Load(sR, &counter)
	}
}

//go:noinline
func gatedRMWLoop(n int) {
	for i := 0; i < n; i++ {
		Store(sW, &counter, Load(sR, &counter)+i)
	}
}

func perAccess(n int, loop func(int)) float64 {
	start := time.Now()
	loop(n)
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

//go:noinline
func plainLoadLoop(n int) {
	for i := 0; i < n; i++ {
		sink += counter
	}
}

//go:noinline
func plainRMWLoop(n int) {
	for i := 0; i < n; i++ {
		counter = counter + i
	}
}

// neverTrue guards the calls of the mem loops; it is never set.
var neverTrue bool

//go:noinline
func coldCall() { sink++ }

//go:noinline
func memLoadLoop(n int) {
	for i := 0; i < n; i++ {
		sink += counter
		if neverTrue {
			coldCall()
		}
	}
}

//go:noinline
func memRMWLoop(n int) {
	for i := 0; i < n; i++ {
		counter = counter + i
		if neverTrue {
			coldCall()
		}
	}
}

// BenchmarkActivePoint measures the CPU time of an active memory access
// whose scheduling point lets the token holder continue (issue 11): one
// goroutine loading a variable, under PCT (every access a point) and under
// PCTVB tracking that variable, so that every access is one of its
// counted accesses. A campaign of 1 execution is subtracted from one of
// 201 (process start and the first execution), over the 200 x 20,000
// points between them; best of five alternating rounds.
func BenchmarkActivePoint(b *testing.B) {
	ns := pointCPU(b, "TestProgPoints", 201, pointsPerExec)
	native := nativeLoop(201 * pointsPerExec)
	for _, name := range []string{"pct", "pctvb"} {
		b.ReportMetric(ns[name], "cpu-ns/point-"+name)
		b.ReportMetric(ns[name]/native, "x-native-load-"+name)
	}
	b.ReportMetric(0, "ns/op")
}

// pointCPU runs prog, which makes points tracked loads per execution,
// under PCT and under PCTVB tracking the loaded variable, and returns the
// worker's CPU per load for each: a campaign of 1 execution subtracted
// from one of iters (process start and the first execution), best of five
// alternating rounds.
func pointCPU(b *testing.B, prog string, iters, points int) map[string]float64 {
	specs := map[string]Config{
		"pct":   {Spec: testSpec("pct")},
		"pctvb": {Spec: Spec{Name: "pctvb", D: 3}, VarSites: [][]int{{sR}}, Sites: []int{sR}}, // as a PCTVB hunt activates its sites alone
	}
	res := map[string]time.Duration{}
	for range 5 {
		for _, name := range []string{"pct", "pctvb"} {
			cfg := specs[name]
			cfg.Seed, cfg.Iters = 1, iters
			long := cpuOf(b, prog, cfg)
			cfg.Iters = 1
			res[name] = best(res[name], long-cpuOf(b, prog, cfg))
		}
	}
	ns := map[string]float64{}
	for name, d := range res {
		ns[name] = float64(d.Nanoseconds()) / float64((iters-1)*points)
	}
	return ns
}
