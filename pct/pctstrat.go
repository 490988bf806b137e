package pct

import (
	"math"
	"sort"
)

// pctStrategy is PCT (Burckhardt et al., ASPLOS'10): every goroutine gets a
// random distinct priority when it is created, the highest-priority enabled
// goroutine runs, and at d-1 steps chosen uniformly among the k steps of a
// run the running goroutine drops to a priority below all initial ones. A
// bug of depth d is found with probability at least 1/(n k^(d-1)) per run.
//
// k is learned: the largest step count of the earlier executions of this
// worker (the first execution has no change points). Letting time pass
// takes part like a goroutine with the lowest initial priority, so a
// timeout fires early only after a change point (it costs one preemption,
// as a delay would); once time has passed, it ranks below everything, so
// it passes again only when nobody else can run.
type pctStrategy struct {
	d, k     int
	rng      *Rand
	prio     []uint64 // goroutine id -> priority; 0 = not assigned yet
	timePrio uint64
	changes  []int // sorted steps of the change points
	used     int   // change points passed
	// Thread bounding (ISSTA'13 §4): priorities come from a random
	// permutation P of 1..n+c (n goroutines, learned; c = d-1 change
	// points): goroutine i gets P_i, and at the i-th change point the
	// running goroutine gets P_{n+i}, which may rank anywhere.
	tb   bool
	t    int   // the thread bound the campaign targets (for its Spec)
	n    int   // most goroutines seen in an execution of this worker
	perm []int // P_1..P_{n+c}, 1-based values
}

const prioBand = uint64(1) << 62 // initial priorities live above this

func newPCT(d int) *pctStrategy { return &pctStrategy{d: d} }

// newPCTTB is PCT with thread-bounded priorities, for bugs of thread bound t.
func newPCTTB(d, t int) *pctStrategy { return &pctStrategy{d: d, tb: true, t: t} }

func (s *pctStrategy) Begin(exec int, rng *Rand) bool {
	s.rng = rng
	s.prio = s.prio[:0]
	s.timePrio = prioBand // the lowest initial priority
	s.changes = s.changes[:0]
	s.used = 0
	if s.tb {
		s.perm = permutation(rng, s.n+s.d-1)
	}
	if s.k > 0 {
		for i := 0; i < s.d-1; i++ {
			s.changes = append(s.changes, 1+rng.Intn(s.k))
		}
		sort.Ints(s.changes)
	}
	return true
}

func (s *pctStrategy) priority(g *G) uint64 {
	for len(s.prio) <= g.id {
		s.prio = append(s.prio, 0)
	}
	if s.prio[g.id] == 0 {
		s.prio[g.id] = s.initialPriority(g.id)
	}
	return s.prio[g.id]
}

// initialPriority is a new goroutine's priority: random (PCT), or P_i
// (thread bounding; goroutines beyond the n learned rank below them, in
// creation order). Before n is learned (the first execution of a worker)
// there is no permutation to draw from: priorities are PCT's, random, rather
// than all equal (which ran the goroutines in creation order).
func (s *pctStrategy) initialPriority(id int) uint64 {
	if !s.tb || s.n == 0 {
		return prioBand + 1 + s.rng.Uint64()%(prioBand-2)
	}
	if id < s.n {
		return prioBand + 1 + uint64(s.perm[id])
	}
	return prioBand + 1
}

// changePriority is the priority the running goroutine drops (or, with
// thread bounding, moves) to at change point number used.
func (s *pctStrategy) changePriority() uint64 {
	if s.tb && s.n+s.used < len(s.perm) {
		return prioBand + 1 + uint64(s.perm[s.n+s.used])
	}
	return uint64(s.d - s.used) // d-1, d-2, ...: below every initial priority
}

func (s *pctStrategy) setPriority(g *G, p uint64) {
	s.priority(g)
	s.prio[g.id] = p
}

func (s *pctStrategy) Next(d *Decision) int {
	for s.used < len(s.changes) && s.changes[s.used] <= d.Step {
		if d.Cur != nil && s.changes[s.used] == d.Step {
			s.setPriority(d.Cur, s.changePriority())
		}
		s.used++
	}
	return s.choose(d)
}

// stays: PCT's choice changes only at a change point (stayer).
func (s *pctStrategy) stays(step int, _ Access, _ *G, _ []*G) bool {
	return s.used >= len(s.changes) || s.changes[s.used] > step
}

// horizon is the next change point (horizonStayer).
func (s *pctStrategy) horizon() int {
	if s.used < len(s.changes) {
		return s.changes[s.used]
	}
	return math.MaxInt
}

// choose runs the highest-priority option (time included).
func (s *pctStrategy) choose(d *Decision) int {
	if d.Yield && d.Cur != nil {
		s.yield(d.Cur, d.Choices)
	}
	best, bp := -1, uint64(0)
	for i, g := range d.Choices {
		if p := s.priority(g); best < 0 || p > bp {
			best, bp = i, p
		}
	}
	if d.CanPassTime && (best < 0 || s.timePrio > bp) {
		// Time never blocks: left at the top it would fire timers for
		// ever. Once it has passed, it runs again only when nobody else
		// can.
		s.timePrio = 1 // below every change-point priority (2..d)
		return PassTime
	}
	return best
}

// yield puts cur just below the lowest-priority other runnable goroutine
// (never below the change-point band), as CHESS does for yields.
func (s *pctStrategy) yield(cur *G, choices []*G) {
	low := uint64(0)
	for _, g := range choices {
		if g != cur {
			if p := s.priority(g); low == 0 || p < low {
				low = p
			}
		}
	}
	if low > 1 {
		s.setPriority(cur, low-1)
	}
}

func (s *pctStrategy) Pick(d *Decision, n int) int { return s.rng.Intn(n) }

func (s *pctStrategy) End(o ExecOutcome) {
	s.k = max(s.k, o.Steps)
	s.n = max(s.n, o.Goroutines)
}

func (s *pctStrategy) Spec() Spec {
	return Spec{Name: "pct", D: s.d, T: s.t}
}
