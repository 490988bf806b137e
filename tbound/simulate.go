package tbound

import (
	"fmt"
	"math"
	"sort"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/vbound"
)

// Config says what to compute: t-subsets of N+C fragments.
type Config struct {
	N, T, C int
	Epsilon float64 // 1 - the coverage probability (0: 0.01)
	Trials  int     // simulated runs of the whole experiment (0: 200)
	Sample  int     // subsets checked per trial when there are more (0: 1000)
	Seed    uint64
}

// MaxT is the largest thread bound the simulation handles (6! = 720
// orderings per subset).
const MaxT = 6

// maxCost bounds the random numbers one simulation may draw (about a
// minute of work): n = 600, t = 6 with 200 trials fits.
const maxCost = 4e9

// MaxFragments bounds n+c: every simulated permutation is drawn in full.
const MaxFragments = 100000

func (c *Config) defaults() {
	if c.Epsilon == 0 {
		c.Epsilon = 0.01
	}
	if c.Trials == 0 {
		c.Trials = 200
	}
	if c.Sample == 0 {
		c.Sample = 1000
	}
}

// Validate reports a Config the computation cannot take.
func (c Config) Validate() error {
	switch {
	case c.N < 1:
		return fmt.Errorf("-n must be at least 1 (got %d)", c.N)
	case c.N+c.C > MaxFragments:
		return fmt.Errorf("n+c must be at most %d (got %d)", MaxFragments, c.N+c.C)
	case c.C < 0:
		return fmt.Errorf("-c must be at least 0 (got %d)", c.C)
	case c.T < 2 || c.T > MaxT:
		return fmt.Errorf("-t must be between 2 and %d (got %d)", MaxT, c.T)
	case c.T > c.N+c.C:
		return fmt.Errorf("-t %d exceeds the %d fragments (n+c)", c.T, c.N+c.C)
	case c.Epsilon < 0 || c.Epsilon >= 1:
		return fmt.Errorf("epsilon must be in (0, 1) (got %g)", c.Epsilon)
	case c.Trials < 0 || c.Sample < 0:
		return fmt.Errorf("trials and sample must not be negative")
	}
	return nil
}

// Simulation is the outcome of Simulate.
type Simulation struct {
	Method   string  `json:"method"`          // "exhaustive" or "sampled"
	Checked  int     `json:"subsets_checked"` // t-subsets checked per trial
	Total    float64 `json:"total_subsets"`   // C(n+c, t)
	Trials   int     `json:"trials"`
	Sample99 int     `json:"sample_99"` // 99% point for the checked subsets
	// Extra is what extrapolation from the checked subsets to all of them
	// adds (0 when every subset is checked).
	Extra int `json:"extrapolation"`
	// P99 is Sample99 + Extra: the number of permutations after which,
	// with probability >= 1-ε, every ordering of every t-subset has
	// appeared.
	P99 int `json:"simulated_99"`
}

// Simulate draws permutations of 1..m (m = N+C) with the runtime's
// generator and measures, per trial, how many it takes until every
// ordering of every checked t-subset has appeared; Sample99 is the
// smallest count reached by at least a 1-ε share of the trials. When
// C(m,t) <= Sample every subset is checked and P99 = Sample99. Otherwise
// a fixed random sample of Sample distinct subsets is checked, and the
// figure is extrapolated: for S subsets the failure probability after P
// permutations is about S·u(P), with u the per-subset miss probability,
// whose tail is t!(1-1/t!)^P; multiplying the number of subsets by N/S
// therefore costs ln(N/S)/-ln(1-1/t!) more permutations for the same ε.
func Simulate(c Config) (Simulation, error) {
	c.defaults()
	if err := c.Validate(); err != nil {
		return Simulation{}, err
	}
	m, k := c.N+c.C, orderings(c.T)
	if cost := float64(UnionBound(m, c.T, c.Epsilon)) * float64(m) * float64(c.Trials); cost > maxCost {
		return Simulation{}, fmt.Errorf("the simulation would draw about %.1g random numbers (more than %.0g): lower -trials, -n or -t", cost, maxCost)
	}
	rng := pct.NewRand(c.Seed)
	sim := Simulation{Method: "exhaustive", Total: Choose(m, c.T), Trials: c.Trials}
	subsets := allSubsets(m, c.T, c.Sample)
	if subsets == nil {
		sim.Method = "sampled"
		subsets = SampleSubsets(rng, m, c.T, c.Sample)
		sim.Extra = ceil(math.Log(sim.Total/float64(len(subsets))) / -math.Log1p(-1/float64(k)))
	}
	sim.Checked = len(subsets)
	counts := make([]int, c.Trials)
	cov := newCoverage(subsets, c.T, m)
	for i := range counts {
		counts[i] = cov.run(rng)
	}
	sort.Ints(counts)
	sim.Sample99 = counts[ceil((1-c.Epsilon)*float64(c.Trials))-1]
	sim.P99 = sim.Sample99 + sim.Extra
	return sim, nil
}

// allSubsets lists every t-subset of 0..m-1, or returns nil when there are
// more than limit.
func allSubsets(m, t, limit int) [][]int {
	if Choose(m, t) > float64(limit) {
		return nil
	}
	var out [][]int
	vbound.Subsets(m, t, func(s []int) bool { out = append(out, s); return true })
	return out
}

// SampleSubsets draws n distinct t-subsets of 0..m-1 uniformly (each a
// sorted slice), in drawing order. It needs C(m,t) >= n.
func SampleSubsets(rng *pct.Rand, m, t, n int) [][]int {
	seen := map[string]bool{}
	var out [][]int
	for len(out) < n {
		s := sampleSubset(rng, m, t)
		key := fmt.Sprint(s)
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	return out
}

// sampleSubset draws one t-subset of 0..m-1 uniformly (Floyd's method).
func sampleSubset(rng *pct.Rand, m, t int) []int {
	in := map[int]bool{}
	for j := m - t; j < m; j++ {
		x := rng.Intn(j + 1)
		if in[x] {
			x = j
		}
		in[x] = true
	}
	s := make([]int, 0, t)
	for x := range in {
		s = append(s, x)
	}
	sort.Ints(s)
	return s
}

// coverage tracks which orderings of each checked subset have appeared.
type coverage struct {
	subsets [][]int
	k       int
	seen    []bool // subset i, ordering o: seen[i*k+o]
	count   []int  // orderings seen, per subset
	open    []int  // subsets not complete yet
	perm    []int
}

func newCoverage(subsets [][]int, t, m int) *coverage {
	k := orderings(t)
	return &coverage{subsets: subsets, k: k, seen: make([]bool, len(subsets)*k),
		count: make([]int, len(subsets)), perm: make([]int, m)}
}

// run draws permutations until every ordering of every subset has
// appeared and returns how many it drew.
func (c *coverage) run(rng *pct.Rand) int {
	clear(c.seen)
	clear(c.count)
	c.open = c.open[:0]
	for i := range c.subsets {
		c.open = append(c.open, i)
	}
	drawn := 0
	for len(c.open) > 0 {
		pct.Permute(rng, c.perm)
		drawn++
		for j := 0; j < len(c.open); {
			i := c.open[j]
			o := OrderingIndex(c.perm, c.subsets[i])
			if !c.seen[i*c.k+o] {
				c.seen[i*c.k+o] = true
				c.count[i]++
			}
			if c.count[i] == c.k {
				c.open[j] = c.open[len(c.open)-1]
				c.open = c.open[:len(c.open)-1]
				continue
			}
			j++
		}
	}
	return drawn
}

// OrderingIndex numbers, in 0..t!-1, the order in which the permutation
// ranks the elements of subset (the Lehmer code of their priorities
// perm[x]): two permutations get the same index exactly when they order
// the subset the same way.
func OrderingIndex(perm, subset []int) int {
	idx := 0
	for i, x := range subset {
		smaller := 0
		for _, y := range subset[i+1:] {
			if perm[y] < perm[x] {
				smaller++
			}
		}
		idx = idx*(len(subset)-i) + smaller
	}
	return idx
}
