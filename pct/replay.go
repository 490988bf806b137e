package pct

// replayStrategy follows a recorded schedule exactly and notices when the
// program does not behave as recorded (uncontrolled nondeterminism: map
// iteration order, the global math/rand source, real time, goroutines gopct
// does not manage). It never silently runs a different schedule: once
// diverged, it records why and falls back to running the lowest id.
type replayStrategy struct {
	sched    Schedule
	sw, pk   int
	diverged string
}

func newReplay(s Schedule) *replayStrategy { return &replayStrategy{sched: s} }

func (s *replayStrategy) Begin(exec int, rng *Rand) { s.sw, s.pk, s.diverged = 0, 0, "" }

func (s *replayStrategy) Next(at Moment, cur *G, choices []*G) *G {
	step := at.Seq
	if s.sw < len(s.sched.Switches) && s.sched.Switches[s.sw].Step == step {
		want := s.sched.Switches[s.sw].To
		s.sw++
		for _, g := range choices {
			if g.id == want {
				return g
			}
		}
		s.diverge("recorded goroutine %s is not runnable at decision %d", gname(want), step)
		return choices[0]
	}
	if cur != nil && contains(choices, cur) {
		return cur
	}
	s.diverge("goroutine %s cannot continue at decision %d but the recording has no switch there", gname(idOf(cur)), step)
	return choices[0]
}

func (s *replayStrategy) Pick(at Moment, n int) int {
	step := at.Seq
	if s.pk < len(s.sched.Picks) && s.sched.Picks[s.pk].Step == step {
		v := s.sched.Picks[s.pk].Value
		s.pk++
		if v < n {
			return v
		}
		s.diverge("recorded choice %d out of range %d at decision %d", v, n, step)
	}
	return 0
}

func (s *replayStrategy) End(steps int) {
	switch {
	case s.sw < len(s.sched.Switches):
		s.diverge("execution ended at decision %d before the recorded switch at decision %d", steps, s.sched.Switches[s.sw].Step)
	case steps != s.sched.Steps && s.sched.Steps != 0:
		s.diverge("execution took %d steps, the recording %d", steps, s.sched.Steps)
	}
}

func (s *replayStrategy) diverge(format string, args ...any) {
	if s.diverged == "" {
		s.diverged = sprintf(format, args...)
	}
}

func (s *replayStrategy) Describe() string { return "replay" }

func idOf(g *G) int {
	if g == nil {
		return -2
	}
	return g.id
}
