package pct

import (
	"math"
	"slices"
	"sort"
)

// pctvb is PCT with variable bounding (Bindal, Bansal & Lal, ISSTA'13, §3):
// the campaign tracks v variables (only their access sites are scheduling
// points among memory accesses; synchronisation always is), and the d-1
// priority change points are drawn uniformly over the pairs (q, j),
// 1 <= j <= k_q, where k_q is the number of accesses to tracked variable q
// in a run: the running goroutine's priority changes at the j-th access of
// q. Rarely accessed "corner" variables get as many change points as hot
// ones, which is where PCTVB beats PCT (the paper's Figure 6).
//
// k_q is learned like PCT's k: the most accesses to q in an earlier
// execution of this worker (the first execution has no change points). An
// access at a site that may touch several tracked variables counts for
// each of them. Priorities, time and yields are PCT's (pctStrategy), with
// thread-bounded priorities when the spec asks for them (-t).
type pctvb struct {
	*pctStrategy
	varsAt [][]int // site -> tracked variables it may touch
	nvars  int
	k      []int    // learned accesses per run, per variable
	count  []int    // accesses so far in this execution
	points [][2]int // change points (variable, j), sorted
	// due[q] lists the j of the change points of variable q not reached
	// yet, increasing and without repeats (a slice, not a map of pairs:
	// Next looks it up at every tracked access).
	due [][]int
	// hits counts the accesses of each site not yet added to count: the
	// engine increments it at every scheduling point the strategy would
	// see (siteCounter), flush moves it into count. counted lists the
	// sites whose hits flush reads (memory sites of tracked variables).
	hits    []int
	counted []int
	step    int // the step of the last decision or stays call
}

func newPCTVB(s Spec, varSites [][]int) *pctvb {
	base := newPCT(s.D)
	if s.T > 0 {
		base = newPCTTB(s.D, s.T)
	}
	x := &pctvb{pctStrategy: base, nvars: len(varSites)}
	for q, sites := range varSites {
		for _, site := range sites {
			for site >= len(x.varsAt) {
				x.varsAt = append(x.varsAt, nil)
			}
			x.varsAt[site] = append(x.varsAt[site], q)
		}
	}
	x.k = make([]int, x.nvars)
	x.count = make([]int, x.nvars)
	x.due = make([][]int, x.nvars)
	x.hits = make([]int, len(siteTable))
	for site, qs := range x.varsAt {
		if len(qs) > 0 && site < len(x.hits) && isMemory(siteKind(site)) {
			x.counted = append(x.counted, site)
		}
	}
	return x
}

func (x *pctvb) Begin(exec int, rng *Rand) bool {
	x.pctStrategy.Begin(exec, rng)
	x.pctStrategy.changes = x.pctStrategy.changes[:0] // change points are per variable here
	clear(x.count)
	clear(x.hits)
	x.points = sampleChangePoints(rng, x.k, x.d-1)
	for q := range x.due {
		x.due[q] = x.due[q][:0]
	}
	for _, p := range x.points { // sorted: each due[q] increases
		q, j := p[0], p[1]
		if n := len(x.due[q]); n == 0 || x.due[q][n-1] != j {
			x.due[q] = append(x.due[q], j)
		}
	}
	return true
}

// sampleChangePoints draws n pairs (q, j) uniformly among all pairs with
// 1 <= j <= k[q] (with replacement, as PCT draws its steps), sorted.
func sampleChangePoints(rng *Rand, k []int, n int) [][2]int {
	total := 0
	for _, kq := range k {
		total += kq
	}
	if total == 0 {
		return nil
	}
	var out [][2]int
	for i := 0; i < n; i++ {
		r := rng.Intn(total)
		for q, kq := range k {
			if r < kq {
				out = append(out, [2]int{q, r + 1})
				break
			}
			r -= kq
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

func (x *pctvb) Next(d *Decision) int {
	x.step = d.Step
	x.flush()
	if d.CurRuns && isMemory(d.Access.Kind) { // counted by the engine
		for _, q := range x.at(d.Access.Site) {
			if due := x.due[q]; len(due) > 0 && due[0] == x.count[q] {
				x.due[q] = due[1:]
				x.setPriority(d.Cur, x.changePriority())
				x.used++
			}
		}
	}
	return x.choose(d)
}

// flush adds the accesses the engine counted per site to the counts of
// the variables each site may touch (an access at a site that may touch
// several tracked variables counts for each, as the paper's k_q do).
func (x *pctvb) flush() {
	for _, site := range x.counted {
		if h := x.hits[site]; h != 0 {
			x.hits[site] = 0
			for _, q := range x.varsAt[site] {
				x.count[q] += h
			}
		}
	}
}

// siteHits gives the engine the per-site counters (siteCounter).
func (x *pctvb) siteHits() []int { return x.hits }

// tallySite returns a site whose count stands for an access at any of
// sites (tallyCounter): all of them may touch the same tracked variables,
// as every site of one variable does at v = 1; otherwise -1.
func (x *pctvb) tallySite(sites []int) int {
	if len(sites) == 0 {
		return -1
	}
	rep := x.at(sites[0])
	for _, site := range sites[1:] {
		if !slices.Equal(x.at(site), rep) {
			return -1
		}
	}
	return sites[0]
}

// at returns the tracked variables site may touch.
func (x *pctvb) at(site int) []int {
	if uint(site) < uint(len(x.varsAt)) {
		return x.varsAt[site]
	}
	return nil
}

// stays says the holder continues unless the access is a change point
// (stayer): the due j-th access of a variable it may touch. The priorities
// change nowhere else. The engine asks only from the step horizon named.
func (x *pctvb) stays(step int, a Access, _ *G, _ []*G) bool {
	x.step = step
	if !isMemory(a.Kind) {
		return true // only memory accesses count (Next)
	}
	x.flush()
	for _, q := range x.at(a.Site) {
		if due := x.due[q]; len(due) > 0 && due[0] == x.count[q] {
			return false
		}
	}
	return true
}

// horizon is the first step at which an access can be a change point
// (horizonStayer): each step is one access, which adds at most one to
// each count, so the due j-th access of q comes due[q][0]-count[q] steps
// after the last counted one at the earliest. Before it the engine keeps
// the holder without asking, and only counts the accesses per site.
func (x *pctvb) horizon() int {
	x.flush()
	gap := math.MaxInt
	for q, due := range x.due {
		if len(due) > 0 {
			gap = min(gap, due[0]-x.count[q])
		}
	}
	if gap == math.MaxInt {
		return gap
	}
	return x.step + gap
}

func (x *pctvb) End(o ExecOutcome) {
	x.pctStrategy.End(o)
	x.flush()
	for q, c := range x.count {
		x.k[q] = max(x.k[q], c)
	}
}

func (x *pctvb) Spec() Spec {
	s := x.pctStrategy.Spec()
	s.Name, s.V = "pctvb", x.nvars
	return s
}
