package pct

import "math"

// randomWalk picks uniformly among the options at every choice, letting
// time pass being one of them when a timer is pending: the "random walk"
// of the PCT paper's evaluation (Burckhardt et al., ASPLOS'10, section 5),
// with a bias towards letting the current goroutine run on through memory
// accesses that commute with the other goroutines' next operations.
//
// The bias. When the current goroutine's next operation is a memory access
// that no other runnable goroutine is about to touch in a conflicting way
// (any common byte, one of the two a write), the walk may keep it running
// without a draw: after a uniform choice that kept it, it draws a run
// length L in [0, 2*commuteRun) and lets it through the next L such
// accesses. Any non-commuting operation ends the run. L is 0 with
// probability 1/(2*commuteRun), and then the next commuting access is a
// uniform choice again: every interleaving stays reachable.
//
// It is only a bias, not a filter: a partial-order filter that always let
// the current goroutine continue there (until issue 9) was unsound. A
// persistent set {cur} needs cur's access to be independent of every
// future operation of the others, not only of their next one: when g's
// next operation reads x and its following one writes y, while cur writes
// y, the order "g writes y before cur" was never reached
// (corpus/race_field_health, race detection off: 0 of 5 seeds).
//
// The walk's choices are a function of the execution's seed and of what
// the program does, so its schedule records the seed and the number of
// draws, not the switches (Schedule.Walk): a replay walks again.
type randomWalk struct {
	rng   *Rand
	seed  uint64 // the state rng started from (Schedule.WalkSeed)
	draws int    // numbers drawn so far in the execution
	run   int    // commuting accesses the current goroutine runs through without a draw
	// step and alone: the step of the last choice (Next or stays) and
	// whether it was among one runnable goroutine (horizon).
	step  int
	alone bool
}

// commuteRun is the mean run length of the bias. Measured (issue 9), CPU
// per execution of docs/OVERHEAD.md's MergeSort, random v=all: uniform
// walk 769 ms, this bias 301 ms, the old filter 128 ms. Giving every
// choice's goroutine a run, not only a kept one, cost 215 ms but switched
// too rarely inside a run: corpus/race_field_health (race detection off)
// took executions #69 to #705 over seeds 2-5, against #1 to #97 with this
// bias and #0 to #36 uniformly; a run of 64 instead of 16 changed no
// outcome on the corpus's 17 data-race kernels.
const commuteRun = 16

func (s *randomWalk) Begin(exec int, rng *Rand) bool {
	s.rng, s.seed, s.draws, s.run = rng, rng.s, 0, 0
	return true
}

// intn draws a number in [0, n), counting the draws (Intn(1) draws none).
func (s *randomWalk) intn(n int) int {
	if n <= 1 {
		return 0
	}
	s.draws++
	return s.rng.Intn(n)
}

// walkPreemptSteps is the scheduling point after which the walk no longer
// preempts: the goroutine that runs keeps running until it blocks, yields
// or exits, and the walk draws only then, among those that can run (time
// passing among them when no goroutine can). A walk decides at every point,
// at ~400 ns each, which made an execution of docs/OVERHEAD.md's HashSet
// (6.5 million points) 22x PCT's, whose fast path lets the holder run to
// its next change point; so the portfolio, half walk, ran a twelfth of
// PCT's executions within a time budget. Past the cap the walk is as cheap
// as PCT after its last change point. The bugs the walk finds where PCT
// does not (docs/STRATEGIES.md) are preemptions within the first few
// thousand points; PCT's change points cover long executions, and the
// livelock windows (2^20 points) any spin that no preemption ends.
const walkPreemptSteps = 1 << 16

func (s *randomWalk) Next(d *Decision) int {
	s.step, s.alone = d.Step, len(d.Choices) == 1
	if d.Step >= walkPreemptSteps && d.CurRuns && !d.Yield {
		s.run = 0
		return d.IndexOf(d.Cur)
	}
	free := d.CurRuns && !d.Yield && !d.CanPassTime && commutes(d.Access, d.Cur, d.Choices)
	if free && s.run > 0 {
		s.run--
		return d.IndexOf(d.Cur)
	}
	s.run = 0
	n := d.Options()
	if d.Yield && d.Cur != nil && n > 1 {
		// A yielding goroutine lets another run: draw among the other
		// options, the last one standing in for the yielder's slot.
		i := s.intn(n - 1)
		if i < len(d.Choices) && d.Choices[i] == d.Cur {
			i = n - 1
		}
		return d.Option(i)
	}
	pick := d.Option(s.intn(n))
	if free && n > 1 && pick >= 0 && d.Choices[pick] == d.Cur {
		s.run = s.intn(2 * commuteRun)
	}
	return pick
}

// stays: the walk keeps cur without a decision when cur is the only
// runnable goroutine (Intn(1) draws nothing) or when it is in a run of
// commuting accesses (stayer; the engine has ruled out yields and timers).
// It does what Next would do.
func (s *randomWalk) stays(step int, a Access, cur *G, runnable []*G) bool {
	s.step, s.alone = step, len(runnable) == 1
	if step >= walkPreemptSteps {
		return true // no preemption past the cap: Next keeps cur
	}
	if s.run > 0 && commutes(a, cur, runnable) {
		s.run--
		return true
	}
	if len(runnable) == 1 {
		s.run = 0 // Next's choice among one: the run ends, nothing drawn
		return true
	}
	return false
}

// horizon: when the holder is the only runnable goroutine and no run is
// under way, stays keeps it at every point without a draw and without
// changing anything, until the runnable goroutines change (the engine
// then decides again): the engine need not ask (horizonStayer), and its
// fast bound applies (issue 11: the walk's v-all cells were 59x and 87x
// native, with every access asking). Otherwise it asks at the next step.
func (s *randomWalk) horizon() int {
	if s.alone && s.run == 0 || s.step >= walkPreemptSteps {
		return math.MaxInt
	}
	return s.step + 1
}

// commutes says whether cur's next operation a, a memory access, commutes
// with the next operation of every other runnable goroutine.
func commutes(a Access, cur *G, runnable []*G) bool {
	if !isMemory(a.Kind) || a.Addr == 0 {
		return false
	}
	for _, g := range runnable {
		if g == cur {
			continue
		}
		b := g.pending
		if !isMemory(b.Kind) || b.Addr == 0 {
			return false // a sync operation, or not known
		}
		if overlap(a, b) && (a.Write || b.Write) {
			return false
		}
	}
	return true
}

// overlap says whether two memory accesses touch a common byte: a reader's
// copy of a whole struct and a writer's store to one of its fields start at
// different addresses but conflict (corpus/race_field_reload's torn config
// was never scheduled while only start addresses were compared).
func overlap(a, b Access) bool {
	return a.Addr < b.Addr+max(b.Size, 1) && b.Addr < a.Addr+max(a.Size, 1)
}

func (s *randomWalk) Pick(d *Decision, n int) int { return s.intn(n) }
func (s *randomWalk) End(ExecOutcome)             {}
func (s *randomWalk) Spec() Spec                  { return Spec{Name: "random"} }

// walked: the walk's schedule is its seed and its draws (see Schedule.Walk).
func (s *randomWalk) walked() (seed uint64, draws int) { return s.seed, s.draws }
