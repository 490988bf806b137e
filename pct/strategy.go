package pct

// Strategy decides every interleaving choice of an execution. Each strategy
// is one small file; replay is a strategy like the others.
//
// Next is called at every scheduling point with the goroutines that may run
// (sorted by id; the time pseudo-goroutine, when present, is last). cur is
// the goroutine at the point, or nil when the decision is made after time
// passed; cur may be absent from choices when it cannot continue (it blocked
// or exited). Next must return an element of choices.
type Strategy interface {
	// Begin starts execution number exec; rng is seeded for that execution.
	Begin(exec int, rng *Rand)
	Next(at Moment, cur *G, choices []*G) *G
	// Pick chooses a value in [0, n): which select case is tried first.
	Pick(at Moment, n int) int
	// End is told the number of scheduling steps of the finished execution.
	End(steps int)
	// Describe returns the parameters that identify the schedule family,
	// for reports (e.g. "pct d=3 k=120").
	Describe() string
}

// Moment identifies a decision: Step counts scheduling points (PCT's k
// steps), Seq counts decisions (several can happen at one step, e.g. a
// goroutine reaches a point, continues, then blocks).
type Moment struct {
	Step, Seq int
	Yield     bool // the goroutine at the point yields (runtime.Gosched): prefer another
}

// Rand is a small deterministic generator (SplitMix64): the whole schedule
// of an execution derives from one seed.
type Rand struct{ s uint64 }

// NewRand returns a generator for seed.
func NewRand(seed uint64) *Rand { return &Rand{s: seed} }

// Uint64 returns the next value.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a value in [0, n).
func (r *Rand) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(r.Uint64() % uint64(n))
}

// execSeed derives the seed of execution i from the campaign seed.
func execSeed(seed uint64, i int) uint64 {
	r := NewRand(seed ^ (uint64(i) * 0xd1b54a32d192ed03))
	r.Uint64()
	return r.Uint64()
}

func contains(gs []*G, g *G) bool {
	for _, x := range gs {
		if x == g {
			return true
		}
	}
	return false
}
