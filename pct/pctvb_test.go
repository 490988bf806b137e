package pct

import (
	"slices"
	"sync"
	"testing"
)

func TestSampleChangePointsExact(t *testing.T) {
	got := sampleChangePoints(NewRand(1), []int{3, 0, 5}, 4)
	want := [][2]int{{0, 2}, {2, 1}, {2, 4}, {2, 5}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	// Uniform over the 8 pairs: a variable with no access never gets one,
	// and over many draws each pair is drawn about equally often.
	counts := map[[2]int]int{}
	r := NewRand(7)
	for range 8000 {
		for _, p := range sampleChangePoints(r, []int{3, 0, 5}, 1) {
			counts[p]++
		}
	}
	for p, n := range counts {
		if p[0] == 1 || n < 850 || n > 1150 {
			t.Errorf("pair %v drawn %d times of 8000 (want about 1000)", p, n)
		}
	}
	if len(counts) != 8 {
		t.Errorf("%d distinct pairs drawn, want 8", len(counts))
	}
}

func TestPermutationExact(t *testing.T) {
	p := permutation(NewRand(3), 6)
	seen := map[int]bool{}
	for _, v := range p {
		seen[v] = true
	}
	if len(seen) != 6 || seen[0] || seen[7] {
		t.Fatalf("%v is not a permutation of 1..6", p)
	}
	if want := []int{6, 1, 3, 5, 2, 4}; !slices.Equal(p, want) {
		t.Errorf("seed 3: %v, want %v", p, want)
	}
}

// TestProgCorner: a hot variable (other) accessed 400 times and a cold one
// (counter) with a lost update: (c, v, t) = (1, 1, 2) on the cold one.
func TestProgCorner(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter, other = 0, 0
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 2)
		for range 2 {
			Go(sGo, func() {
				for range 100 {
					Store(sW2, &other, Load(sR2, &other)+1)
				}
				Store(sW, &counter, Load(sR, &counter)+1)
				for range 100 {
					Store(sW2, &other, Load(sR2, &other)+1)
				}
				WGDone(sWG, &wg)
			})
		}
		WGWait(sWG, &wg)
		if v := Load(sR, &counter); v != 2 {
			TError(sFail, t, "Errorf", "counter = %d, want 2", v)
		}
	})
}

func TestPCTVBFindsCornerVariableBug(t *testing.T) {
	// PCTVB tracking the cold variable only: its k is 4, so a change point
	// lands between a goroutine's read and write of counter often.
	recs := campaign(t, "TestProgCorner", Config{Spec: Spec{Name: "pctvb", D: 2}, Seed: 1, Iters: 200,
		Sites: []int{sR, sW}, VarSites: [][]int{{sR, sW}}})
	if recs[0].Type != RecBug || recs[0].Bug.Kind != FailTest {
		t.Fatalf("pctvb: %+v", recs[len(recs)-1])
	}
	vb := recs[0].Bug.Execution
	// Plain PCT (d=3) over ~1,600 steps needs far more: execution 147.
	recs = campaign(t, "TestProgCorner", Config{Spec: testSpec("pct"), Seed: 1, Iters: 200})
	pct := 200
	if recs[0].Type == RecBug {
		pct = recs[0].Bug.Execution
	}
	if vb != 5 || pct != 147 {
		t.Errorf("pctvb found it in execution %d, pct in %d (200: not found)", vb, pct)
	}
}

// TestThreadBoundFirstExecution: before the number of goroutines is
// learned, thread-bounded PCT draws random priorities like PCT (it used to
// give every goroutine the same one: creation order, the same schedule for
// every seed); afterwards P_i from the permutation.
func TestThreadBoundFirstExecution(t *testing.T) {
	s := newPCTTB(3, 2)
	s.Begin(0, NewRand(1))
	seen := map[uint64]bool{}
	for id := range 4 {
		seen[s.priority(&G{id: id})] = true
	}
	if len(seen) != 4 {
		t.Fatalf("first execution: %d distinct priorities among 4 goroutines, want 4", len(seen))
	}
	s.End(ExecOutcome{Steps: 10, Goroutines: 4})
	s.Begin(1, NewRand(2))
	var got []int
	for id := range 4 {
		got = append(got, int(s.priority(&G{id: id})-prioBand-1))
	}
	if !slices.Equal(got, s.perm[:4]) {
		t.Errorf("second execution: priorities %v, want P_1..P_4 = %v", got, s.perm[:4])
	}
}

// TestPCTVBHorizonFiresAtTheDueAccesses drives PCTVB as the engine does
// (per-site counts, no call before the horizon) over a fixed access
// sequence and checks that its change points fall on exactly the steps
// where counting every access of every variable puts them: the j-th
// access of q, for each drawn (q, j).
func TestPCTVBHorizonFiresAtTheDueAccesses(t *testing.T) {
	// Variable 0 at sR and sW (hot), variable 1 at sR2 and sW (so sW
	// counts for both), variable 2 at sW2 (cold).
	varSites := [][]int{{sR, sW}, {sR2, sW}, {sW2}}
	pattern := []int{sR, sR, sW, sR2, sR, sR, sR, sW, sR2, sR, sGo, sR, sR, sW2}
	const steps = 2000
	for seed := uint64(1); seed <= 20; seed++ {
		x := newPCTVB(Spec{Name: "pctvb", D: 6}, varSites)
		x.k = []int{1200, 600, 150} // as learned by an earlier execution
		rng := NewRand(seed)
		x.Begin(1, rng)
		want := dueSteps(x.points, varSites, pattern, steps)
		g := &G{id: 0}
		var got []int
		stayStep := 0
		for step := 1; step <= steps; step++ {
			site := pattern[step%len(pattern)]
			x.hits[site]++ // pointAt
			if step < stayStep {
				continue
			}
			a := Access{Site: site, Kind: siteKind(site)}
			if x.stays(step, a, g, []*G{g}) {
				stayStep = x.horizon()
				continue
			}
			used := x.used
			x.Next(&Decision{Step: step, Cur: g, CurRuns: true, Choices: []*G{g}, Access: a})
			if x.used > used {
				got = append(got, step)
			}
			stayStep = x.horizon()
		}
		if !slices.Equal(got, want) {
			t.Errorf("seed %d, points %v: change points at steps %v, want %v", seed, x.points, got, want)
		}
	}
}

// dueSteps counts every access of every variable and returns the steps at
// which some drawn (q, j) is reached (once per step, as Next fires them).
func dueSteps(points [][2]int, varSites [][]int, pattern []int, steps int) []int {
	count := make([]int, len(varSites))
	var out []int
	for step := 1; step <= steps; step++ {
		site := pattern[step%len(pattern)]
		hit := false
		for q, sites := range varSites {
			if !slices.Contains(sites, site) {
				continue
			}
			count[q]++
			for _, p := range points {
				hit = hit || p == [2]int{q, count[q]}
			}
		}
		if hit {
			out = append(out, step)
		}
	}
	return out
}
