package pct

import (
	"fmt"
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
