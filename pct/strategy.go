package pct

// Strategy decides every interleaving choice of an execution. Each strategy
// is one small file; replay is a strategy like the others. The engine calls
// it through one decision function (execution.decide), so every strategy
// sees the same thing at every choice, as shuttle's Scheduler trait does.
type Strategy interface {
	// Begin starts execution number exec; rng is seeded for that
	// execution. It returns false when the strategy has nothing left to
	// run (an exhaustive search is complete): the campaign ends there.
	Begin(exec int, rng *Rand) bool
	// Next returns the index in d.Choices of the goroutine that runs
	// next, or PassTime (only when d.CanPassTime) to let the fake clock
	// run to the next timer, or Abandon to give up the execution (prune
	// it: it is counted, never reported as a bug).
	Next(d *Decision) int
	// Pick chooses a value in [0, n): which select case is tried first.
	Pick(d *Decision, n int) int
	// End is told how the finished execution went.
	End(o ExecOutcome)
	// Spec returns the strategy's parameters, as they travel in tokens
	// and results.
	Spec() Spec
}

// Answers of Next that are not a goroutine.
const (
	PassTime = -1 // let the fake clock run to the next pending timer
	Abandon  = -2 // give up this execution (pruned, or out of budget)
)

// Decision is what a strategy sees at a choice.
type Decision struct {
	Step int    // scheduling points so far (PCT's k counts these)
	Seq  int    // decisions so far (several can happen at one step)
	FP   uint32 // fingerprint of the path so far (goroutine, site, kind of every step)
	// Cur is the goroutine at the choice: it reached a scheduling point
	// (CurRuns: it may continue, and it is in Choices), or it cannot go on
	// (it blocked, waits in a model, or exited). Cur is nil when the
	// decision follows time passing or a goroutine coming back while
	// nobody held the token.
	Cur     *G
	CurRuns bool
	Yield   bool // Cur yields (runtime.Gosched): prefer another goroutine
	// Choices are the goroutines that may run, sorted by id.
	Choices []*G
	// CanPassTime says that a timer is pending, so PassTime is a valid
	// answer. With no Choices it is the only one.
	CanPassTime bool
	// Access is the operation Cur is about to perform (CurRuns only;
	// otherwise its Site is -1).
	Access Access
}

// Options is the number of valid answers other than Abandon: the choices,
// plus one for PassTime when time can pass. Option i < len(Choices) is a
// goroutine; i == len(Choices) is PassTime.
func (d *Decision) Options() int {
	if d.CanPassTime {
		return len(d.Choices) + 1
	}
	return len(d.Choices)
}

// Option turns an index in [0, Options()) into an answer of Next.
func (d *Decision) Option(i int) int {
	if i >= len(d.Choices) {
		return PassTime
	}
	return i
}

// IndexOf returns the index of g in d.Choices, or -1.
func (d *Decision) IndexOf(g *G) int {
	for i, x := range d.Choices {
		if x == g {
			return i
		}
	}
	return -1
}

// Access describes the operation at a scheduling point.
type Access struct {
	Site  int      // site id (-1: none)
	Kind  SiteKind // what the site does
	Addr  uintptr  // memory or object address (0: not known)
	Write bool     // a memory access that writes
	// Size is the number of bytes a memory access reads or writes from
	// Addr (0: one, or not known): a copy of a whole struct overlaps the
	// stores to its fields, which start at other addresses.
	Size uintptr
}

// ExecOutcome is how an execution ended, for Strategy.End.
type ExecOutcome struct {
	Steps      int
	Goroutines int         // goroutines created, the test's included
	Failed     bool        // a failure, bug or not
	Kind       FailureKind // what kind, when Failed
	FP         uint32      // fingerprint of the whole path (see Schedule.FP)
	Draws      uint32      // fingerprint of the random draws (see Schedule.Draws)
}

// ID returns the goroutine's id: its creation index in the execution, the
// same in every replay.
func (g *G) ID() int { return g.id }

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
