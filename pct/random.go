package pct

// randomWalk picks uniformly among the choices at every scheduling point
// (the "random walk" of the PCT paper's evaluation).
type randomWalk struct{ rng *Rand }

func (s *randomWalk) Begin(exec int, rng *Rand) { s.rng = rng }

func (s *randomWalk) Next(at Moment, cur *G, choices []*G) *G {
	if at.Yield && cur != nil && len(choices) > 1 {
		// A yielding goroutine lets another run.
		i := s.rng.Intn(len(choices) - 1)
		if choices[i] == cur {
			i = len(choices) - 1
		}
		return choices[i]
	}
	return choices[s.rng.Intn(len(choices))]
}

func (s *randomWalk) Pick(at Moment, n int) int { return s.rng.Intn(n) }
func (s *randomWalk) End(steps int)             {}
func (s *randomWalk) Describe() string          { return "random" }
