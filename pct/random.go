package pct

// randomWalk picks uniformly among the options at every choice, letting
// time pass being one of them when a timer is pending (the "random walk"
// of the PCT paper's evaluation).
type randomWalk struct{ rng *Rand }

func (s *randomWalk) Begin(exec int, rng *Rand) bool {
	s.rng = rng
	return true
}

func (s *randomWalk) Next(d *Decision) int {
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

func (s *randomWalk) Pick(d *Decision, n int) int { return s.rng.Intn(n) }
func (s *randomWalk) End(ExecOutcome)             {}
func (s *randomWalk) Spec() Spec                  { return Spec{Name: "random"} }
