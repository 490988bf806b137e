package tbound

import (
	"fmt"
	"math"
	"testing"

	"github.com/gopct/gopct/pct"
)

// The runtime's generator, exactly: thread bounding's priorities for a
// seed never change unnoticed (recorded schedules replay by them).
func TestPermuteExact(t *testing.T) {
	p := make([]int, 8)
	pct.Permute(pct.NewRand(1), p)
	if got := fmt.Sprint(p); got != "[5 4 3 8 6 7 1 2]" {
		t.Errorf("seed 1, m=8: %s", got)
	}
	r := pct.NewRand(42)
	var got []string
	for range 2 {
		pct.Permute(r, p[:6])
		got = append(got, fmt.Sprint(p[:6]))
	}
	if fmt.Sprint(got) != "[[5 4 1 3 6 2] [3 4 2 5 6 1]]" {
		t.Errorf("seed 42, m=6, twice: %v", got)
	}
}

// Every ordering of 4 elements gets its own index in 0..23.
func TestOrderingIndexBijective(t *testing.T) {
	seen := map[int]bool{}
	var walk func(prefix []int, rest []int)
	walk = func(prefix, rest []int) {
		if len(rest) == 0 {
			perm := make([]int, 6) // priorities of elements 0..5; subset {1,2,4,5}
			for i, x := range []int{1, 2, 4, 5} {
				perm[x] = prefix[i]
			}
			seen[OrderingIndex(perm, []int{1, 2, 4, 5})] = true
			return
		}
		for i := range rest {
			next := append(append([]int(nil), rest[:i]...), rest[i+1:]...)
			walk(append(prefix, rest[i]), next)
		}
	}
	walk(nil, []int{10, 20, 30, 40})
	if len(seen) != 24 || seen[-1] || seen[24] {
		t.Errorf("indexes: %v", seen)
	}
	if OrderingIndex([]int{1, 2, 3}, []int{0, 1, 2}) != 0 || OrderingIndex([]int{3, 2, 1}, []int{0, 1, 2}) != 5 {
		t.Error("identity must be 0 and reversal 5")
	}
}

func TestSampleSubsetsExact(t *testing.T) {
	got := fmt.Sprint(SampleSubsets(pct.NewRand(1), 10, 3, 4))
	if got != "[[0 1 7] [3 8 9] [0 3 5] [0 6 8]]" {
		t.Errorf("seed 1: %s", got)
	}
	// Distinct even when the sample is every subset.
	all := SampleSubsets(pct.NewRand(3), 5, 2, 10)
	seen := map[string]bool{}
	for _, s := range all {
		seen[fmt.Sprint(s)] = true
	}
	if len(seen) != 10 {
		t.Errorf("%d distinct of 10: %v", len(seen), all)
	}
}

// The paper's n = 600: the lemma as stated, the proof's bound, its
// union bound solved exactly, and the exact per-subset model.
func TestBoundsAt600(t *testing.T) {
	var got []string
	for _, tt := range []int{3, 4, 5} {
		got = append(got, fmt.Sprint(LemmaBound(600, tt, .01), ProofBound(600, tt, .01), UnionBound(600, tt, .01)))
	}
	if fmt.Sprint(got) != "[49 168 131 62 864 710 76 5400 4371]" {
		t.Errorf("got %v", got)
	}
	mean, p99 := Independent(600, 3, .01)
	if math.Abs(mean-108.896) > 0.001 || p99 != 131 {
		t.Errorf("t=3: mean %.3f, 99%% point %d", mean, p99)
	}
}

// Per subset, the miss probability is the coupon collector's: for t=2,
// 2^(1-P) after P >= 1 permutations; for t=3, 1 - 6!/6^6 after 6.
func TestSubsetMiss(t *testing.T) {
	if got := fmt.Sprint(subsetMiss(2, 5)); got != "[1 1 0.5 0.25 0.125 0.0625]" {
		t.Errorf("t=2: %s", got)
	}
	if u := subsetMiss(3, 6)[6]; math.Abs(u-(1-720.0/46656)) > 1e-12 {
		t.Errorf("t=3, P=6: %g", u)
	}
}

func TestSimulateExact(t *testing.T) {
	s, err := Simulate(Config{N: 6, T: 3, Trials: 50, Seed: 1})
	if err != nil || fmt.Sprintf("%+v", s) != "{Method:exhaustive Checked:20 Total:20 Trials:50 Sample99:56 Extra:0 P99:56}" {
		t.Errorf("exhaustive: %+v %v", s, err)
	}
	s, err = Simulate(Config{N: 28, C: 2, T: 3, Trials: 20, Sample: 50, Seed: 1})
	if err != nil || fmt.Sprintf("%+v", s) != "{Method:sampled Checked:50 Total:4060 Trials:20 Sample99:57 Extra:25 P99:82}" {
		t.Errorf("sampled: %+v %v", s, err)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []Config{{N: 0, T: 2}, {N: 5, T: 1}, {N: 5, T: 7}, {N: 2, T: 3}, {N: 5, T: 2, C: -1}, {N: 5, T: 2, Epsilon: 1}} {
		if _, err := Compute(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
