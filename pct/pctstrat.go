package pct

import (
	"fmt"
	"sort"
)

// pctStrategy is PCT (Burckhardt et al., ASPLOS'10): every goroutine gets a
// random distinct priority when it is created, the highest-priority enabled
// goroutine runs, and at d-1 steps chosen uniformly among the k steps of a
// run the running goroutine drops to a priority below all initial ones. A
// bug of depth d is found with probability at least 1/(n k^(d-1)) per run.
//
// k is learned: the largest step count of the earlier executions of this
// worker (the first execution has no change points). The pseudo-goroutine
// "time" takes part with the lowest initial priority, so a timeout fires
// early only after a change point (it costs one preemption, as a delay
// would).
type pctStrategy struct {
	d, k    int
	rng     *Rand
	prio    []uint64 // goroutine id+1 -> priority (index 0: time); 0 = not assigned
	changes []int    // sorted steps of the change points
	used    int      // change points passed
}

const prioBand = uint64(1) << 62 // initial priorities live above this

func newPCT(d int) *pctStrategy { return &pctStrategy{d: d} }

func (s *pctStrategy) Begin(exec int, rng *Rand) {
	s.rng = rng
	s.prio = append(s.prio[:0], prioBand) // time: the lowest initial priority
	s.changes = s.changes[:0]
	s.used = 0
	if s.k > 0 {
		for i := 0; i < s.d-1; i++ {
			s.changes = append(s.changes, 1+rng.Intn(s.k))
		}
		sort.Ints(s.changes)
	}
}

func (s *pctStrategy) priority(g *G) uint64 {
	i := g.id + 1
	for len(s.prio) <= i {
		s.prio = append(s.prio, 0)
	}
	if s.prio[i] == 0 {
		s.prio[i] = prioBand + 1 + s.rng.Uint64()%(prioBand-2)
	}
	return s.prio[i]
}

func (s *pctStrategy) Next(at Moment, cur *G, choices []*G) *G {
	step := at.Step
	for s.used < len(s.changes) && s.changes[s.used] <= step {
		if cur != nil && s.changes[s.used] == step {
			s.priority(cur)
			s.prio[cur.id+1] = uint64(s.d - s.used) // d-1, d-2, ...: below every initial priority
		}
		s.used++
	}
	if at.Yield && cur != nil {
		s.yield(cur, choices)
	}
	best := choices[0]
	bp := s.priority(best)
	for _, g := range choices[1:] {
		if p := s.priority(g); p > bp {
			best, bp = g, p
		}
	}
	if best.isTime {
		// Time never blocks: left at the top it would fire timers for
		// ever. Once it has passed, it runs again only when nobody else
		// can.
		s.prio[0] = 1 // below every change-point priority (2..d)
	}
	return best
}

// yield puts cur just below the lowest-priority other runnable goroutine
// (never below the change-point band), as CHESS does for yields.
func (s *pctStrategy) yield(cur *G, choices []*G) {
	low := uint64(0)
	for _, g := range choices {
		if g != cur && !g.isTime {
			if p := s.priority(g); low == 0 || p < low {
				low = p
			}
		}
	}
	if low > 1 {
		s.priority(cur)
		s.prio[cur.id+1] = low - 1
	}
}

func (s *pctStrategy) Pick(at Moment, n int) int { return s.rng.Intn(n) }

func (s *pctStrategy) End(steps int) {
	if steps > s.k {
		s.k = steps
	}
}

func (s *pctStrategy) Describe() string { return fmt.Sprintf("pct d=%d k=%d", s.d, s.k) }
