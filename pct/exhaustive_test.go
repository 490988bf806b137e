package pct

import (
	"fmt"
	"sync"
	"testing"
)

// schedulesByPreemptions enumerates every interleaving of goroutines with
// the given step counts, goroutine 0 running first, and counts them by
// CHESS preemptions (a switch away from a goroutine that had steps left).
func schedulesByPreemptions(steps []int) map[int]int {
	out := map[int]int{}
	left := append([]int(nil), steps...)
	var rec func(cur, c int)
	rec = func(cur, c int) {
		done := true
		for g := range left {
			if left[g] == 0 {
				continue
			}
			done = false
			nc := c
			if g != cur && left[cur] > 0 {
				nc++
			}
			left[g]--
			rec(g, nc)
			left[g]++
		}
		if done {
			out[c]++
		}
	}
	rec(0, 0)
	return out
}

// exploreFake runs the exhaustive strategy over a fake program until it
// has nothing left, and returns its per-bound statistics and the number of
// executions.
func exploreFake(t *testing.T, steps []int, c int) ([]BoundStats, int) {
	t.Helper()
	x := newExhaustive(Spec{Name: "exhaustive", C: c, NoPrune: true})
	n := 0
	for x.Begin(n, nil) {
		drive(exhaustiveNoRng{x}, fakeProgram{steps: steps}, n, 1)
		n++
		if n > 100000 {
			t.Fatal("exhaustive search does not terminate")
		}
	}
	return x.Stats(), n
}

// exhaustiveNoRng lets the fake driver call Begin without starting a new
// work item (the loop above already did).
type exhaustiveNoRng struct{ *exhaustive }

func (exhaustiveNoRng) Begin(int, *Rand) bool { return true }

func TestExhaustiveCountsMatchEnumeration(t *testing.T) {
	for _, steps := range [][]int{{3, 3}, {2, 2, 2}, {4, 1}} {
		want := schedulesByPreemptions(steps)
		stats, _ := exploreFake(t, steps, 4)
		for c := 0; c <= 4; c++ {
			if got := stats[c].Executed; got != want[c] {
				t.Errorf("%v: bound %d: %d schedules, want %d", steps, c, got, want[c])
			}
		}
	}
}

func TestExhaustiveTwoByThreeExact(t *testing.T) {
	// Two goroutines of 3 steps each, g0 first. c=0: 000111. c=1: g0 runs
	// a < 3 steps, is preempted, g1 runs to its end, g0 finishes: 0^a 111
	// 0^(3-a), 3 schedules. Of the C(6,3) = 20 interleavings, 1, 3, 6, 6
	// and 3 need c = 0..4, and 101010 alone needs c = 5.
	stats, n := exploreFake(t, []int{3, 3}, 4)
	got := ""
	for _, s := range stats {
		got += fmt.Sprintf("%d ", s.Executed)
	}
	if want := "1 3 6 6 3 "; got != want || n != 19 {
		t.Errorf("schedules per bound %q (%d executions), want %q (19)", got, n, want)
	}
}

func exhaustiveRun(t *testing.T, prog string, c int, noPrune bool) Record {
	t.Helper()
	recs := campaign(t, prog, Config{Spec: Spec{Name: "exhaustive", C: c, NoPrune: noPrune}, Seed: 1, Iters: 1 << 30})
	return recs[len(recs)-1]
}

func TestExhaustiveFindsLostUpdateWithOnePreemption(t *testing.T) {
	for _, noPrune := range []bool{false, true} {
		b, done := hunt2(t, "TestProgLostUpdate", Spec{Name: "exhaustive", C: 3, NoPrune: noPrune})
		if b == nil || b.Kind != FailTest || b.Preemptions != 1 {
			t.Fatalf("noPrune=%v: bug %+v (done %+v), want a failure with 1 preemption", noPrune, b, done)
		}
		if done.Bounds[0].Executed == 0 {
			t.Errorf("noPrune=%v: bound 0 not explored before bound 1: %+v", noPrune, done.Bounds)
		}
	}
}

func hunt2(t *testing.T, prog string, s Spec) (*BugReport, Record) {
	t.Helper()
	recs := campaign(t, prog, Config{Spec: s, Seed: 1, Iters: 1 << 30})
	for _, r := range recs {
		if r.Type == RecBug {
			return r.Bug, recs[len(recs)-1]
		}
	}
	return nil, recs[len(recs)-1]
}

func TestExhaustivePruningCutsExecutionsOfACorrectProgram(t *testing.T) {
	pruned := exhaustiveRun(t, "TestProgLockedCounter", 2, false)
	full := exhaustiveRun(t, "TestProgLockedCounter", 2, true)
	if !pruned.Complete || !full.Complete {
		t.Fatalf("search did not complete: %+v / %+v", pruned, full)
	}
	execs := func(r Record) (n int) {
		for _, b := range r.Bounds {
			n += b.Executed
		}
		return n
	}
	t.Logf("executions up to c=2: %d with pruning, %d without", execs(pruned), execs(full))
	if execs(pruned)*10 > execs(full)*7 {
		t.Errorf("pruning saved less than 30%%: %d vs %d", execs(pruned), execs(full))
	}
}

// TestPruningKeepsTheMapWriteWindow: a map write's effect lands at the end
// of its window; the states inside and after the window must not be merged
// by the happens-before hash, or the concurrent write is pruned away.
func TestPruningKeepsTheMapWriteWindow(t *testing.T) {
	for _, noPrune := range []bool{false, true} {
		b, _ := hunt2(t, "TestProgMapWrites", Spec{Name: "exhaustive", C: 2, NoPrune: noPrune})
		if b == nil || b.Kind != FailFatal || b.Preemptions != 1 {
			t.Errorf("noPrune=%v: %+v, want concurrent map writes with 1 preemption", noPrune, b)
		}
	}
}

// twoByK is the number of interleavings of two goroutines of k steps each,
// goroutine 0 first, with exactly c preemptions, derived by hand: a
// schedule is r alternating runs; every switch but the last leaves a
// goroutine with steps left (a preemption), the last follows a goroutine's
// end (free). Starting with goroutine 0, c preemptions are r = c+2 runs,
// ceil(r/2) of goroutine 0 and floor(r/2) of goroutine 1, each a
// composition of k steps: C(k-1, ceil(r/2)-1) * C(k-1, floor(r/2)-1).
// Starting with goroutine 1 costs one preemption more.
func twoByK(k, c int) int {
	from0 := func(c int) int {
		if c < 0 {
			return 0
		}
		r := c + 2
		return binomial(k-1, (r+1)/2-1) * binomial(k-1, r/2-1)
	}
	return from0(c) + from0(c-1)
}

func binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	out := 1
	for i := 0; i < k; i++ {
		out = out * (n - i) / (i + 1)
	}
	return out
}

func TestExhaustiveTwoByKClosedForm(t *testing.T) {
	for _, k := range []int{1, 2, 5, 20} {
		maxC := min(4, 2*k)
		if k == 20 {
			maxC = 2 // 1, 20 and 380 schedules
		}
		stats, n := exploreFake(t, []int{k, k}, maxC)
		total := 0
		for c := 0; c <= maxC; c++ {
			want := twoByK(k, c)
			total += want
			if got := stats[c].Executed; got != want {
				t.Errorf("k=%d: %d schedules with %d preemptions, want %d", k, got, c, want)
			}
		}
		if n != total {
			t.Errorf("k=%d: %d executions up to c=%d, want %d", k, n, maxC, total)
		}
	}
	if got := []int{twoByK(20, 0), twoByK(20, 1), twoByK(20, 2)}; fmt.Sprint(got) != "[1 20 380]" {
		t.Errorf("closed form for k=20: %v", got)
	}
}

// twoByTwenty: two goroutines of 20 memory accesses each to one variable.
func TestProgTwoByTwenty(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		x := 0
		WGAdd(sWG, &wg, 2)
		for range 2 {
			Go(sGo, func() {
				for range 20 {
					Store(sW, &x, Load(sR, &x)/2)
				}
				WGDone(sWG, &wg)
			})
		}
		WGWait(sWG, &wg)
	})
}

// BenchmarkExhaustiveTwoByTwenty: the complete search up to c = 2 without
// pruning of two goroutines × 20 steps (40 accesses each: a load and a
// store per step), as executions per second and as a ratio to PCT running
// the same number of executions of the same program in the same run.
func BenchmarkExhaustiveTwoByTwenty(b *testing.B) {
	recs := campaignB(b, "TestProgTwoByTwenty", Config{Spec: Spec{Name: "exhaustive", C: 2, NoPrune: true}, Seed: 1, Iters: 1 << 30})
	done := recs[len(recs)-1]
	if !done.Complete {
		b.Fatalf("search incomplete: %+v", done)
	}
	pct := benchCampaign(b, "TestProgTwoByTwenty", "pct", done.Executions)
	b.ReportMetric(float64(done.Executions), "executions")
	b.ReportMetric(done.Elapsed.Seconds(), "s-search")
	b.ReportMetric(float64(done.Executions)/done.Elapsed.Seconds(), "executions/s")
	b.ReportMetric(float64(done.Elapsed)/float64(pct), "x-pct-time")
	b.ReportMetric(0, "ns/op")
}

// TestISSTACountTwoByK: counted as ISSTA'13 counts, the initial priority
// order is free, so each schedule of two goroutines of k steps that starts
// with goroutine 1 costs no more than its mirror image starting with
// goroutine 0: 2 * from0(c) schedules with exactly c priority changes.
func TestISSTACountTwoByK(t *testing.T) {
	for _, k := range []int{1, 3, 5} {
		x := newISSTASearch(Spec{Name: "exhaustive-issta", C: 4, NoPrune: true})
		n := 0
		for x.Begin(n, nil) {
			drive(isstaNoBegin{x}, fakeProgram{steps: []int{k, k}}, n, 1)
			n++
		}
		for c := 0; c <= 4; c++ {
			want := 2 * (twoByK(k, c) - twoByK(k, c-1) + twoByK(k, c-2) - twoByK(k, c-3) + twoByK(k, c-4))
			if got := x.Stats()[c].Executed; got != want {
				t.Errorf("k=%d: %d schedules with %d priority changes, want %d", k, got, c, want)
			}
		}
	}
}

type isstaNoBegin struct{ *isstaSearch }

func (isstaNoBegin) Begin(int, *Rand) bool { return true }
