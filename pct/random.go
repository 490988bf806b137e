package pct

// randomWalk picks uniformly among the options at every choice that
// matters, letting time pass being one of them when a timer is pending (the
// "random walk" of the PCT paper's evaluation, with a partial-order filter).
//
// A choice matters unless the current goroutine is about to access memory
// that no other runnable goroutine is about to touch in a conflicting way
// (any common byte, one of the two a write):
// then running another goroutine first leads to a state that running the
// current one first reaches too (the two next operations commute), so the
// walk lets it continue. Synchronisation operations, yields, blocked
// goroutines and goroutines whose next operation is not known always give a
// random choice. On memory-bound code this removes almost every switch (a
// parallel merge sort: docs/OVERHEAD.md) without losing an interleaving of
// conflicting operations.
type randomWalk struct{ rng *Rand }

func (s *randomWalk) Begin(exec int, rng *Rand) bool {
	s.rng = rng
	return true
}

func (s *randomWalk) Next(d *Decision) int {
	if d.CurRuns && !d.Yield && !d.CanPassTime && commutes(d.Access, d.Cur, d.Choices) {
		return d.IndexOf(d.Cur)
	}
	n := d.Options()
	if d.Yield && d.Cur != nil && n > 1 {
		// A yielding goroutine lets another run: draw among the other
		// options, the last one standing in for the yielder's slot.
		i := s.rng.Intn(n - 1)
		if i < len(d.Choices) && d.Choices[i] == d.Cur {
			i = n - 1
		}
		return d.Option(i)
	}
	return d.Option(s.rng.Intn(n))
}

// stays: the walk keeps cur without drawing a number when cur is the only
// runnable goroutine (Intn(1) draws nothing) or when its access commutes
// (stayer; the engine has ruled out yields and timers).
func (s *randomWalk) stays(_ int, a Access, cur *G, runnable []*G) bool {
	return len(runnable) == 1 || commutes(a, cur, runnable)
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

func (s *randomWalk) Pick(d *Decision, n int) int { return s.rng.Intn(n) }
func (s *randomWalk) End(ExecOutcome)             {}
func (s *randomWalk) Spec() Spec                  { return Spec{Name: "random"} }
