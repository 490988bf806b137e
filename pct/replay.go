package pct

// replayStrategy follows a recorded schedule exactly and notices when the
// program does not behave as recorded (uncontrolled nondeterminism: map
// iteration order, the global math/rand source, real time, goroutines gopct
// does not manage). It never silently runs a different schedule: once
// diverged, it records why and falls back to running the lowest id.
//
// A random walk's schedule (Schedule.Walk) has no switches: the replay
// walks again from the recorded seed, and the trail, the step count, the
// path fingerprint and the number of draws tell where it left the
// recording (after a divergence the walk goes on from its own draws).
type replayStrategy struct {
	sched    Schedule
	sw, pk   int
	diverged string
	texts    map[int]string // this binary's site texts, as compared with the trail
	walk     *randomWalk    // the walk again, for a walk's schedule
}

func newReplay(s Schedule) *replayStrategy { return &replayStrategy{sched: s} }

func (s *replayStrategy) Begin(exec int, rng *Rand) bool {
	s.sw, s.pk, s.diverged = 0, 0, ""
	if s.sched.Walk {
		s.walk = &randomWalk{}
		s.walk.Begin(exec, NewRand(s.sched.WalkSeed))
	}
	return true
}

func (s *replayStrategy) Next(d *Decision) int {
	if s.walk != nil {
		return s.walk.Next(d)
	}
	if s.sw < len(s.sched.Switches) && s.sched.Switches[s.sw].Step == d.Seq {
		rec := s.sched.Switches[s.sw]
		want := rec.To
		s.sw++
		if rec.FP != 0 && rec.FP != d.FP && !s.trailCovers(d.Step) {
			s.diverge("the run left the recorded path (goroutines, operations or random draws) before decision %d (step %d): the recording was at %s (%s), the replay is at %s (%s)",
				d.Seq, d.Step, sitePos(rec.Site), siteOp(rec.Site), curPos(d), curOp(d))
		}
		if want == timeID && d.CanPassTime {
			return PassTime
		}
		for i, g := range d.Choices {
			if g.id == want {
				return i
			}
		}
		s.diverge("recorded goroutine %s is not runnable at decision %d", gname(want), d.Seq)
		return s.fallback(d)
	}
	if d.CurRuns {
		return d.IndexOf(d.Cur)
	}
	return d.Option(0) // the default, never recorded (recorder.switchTo)
}

// fallback is the choice after a divergence: the lowest id, or time.
func (s *replayStrategy) fallback(d *Decision) int {
	if len(d.Choices) == 0 {
		return PassTime
	}
	return 0
}

func (s *replayStrategy) Pick(d *Decision, n int) int {
	if s.walk != nil {
		return s.walk.Pick(d, n)
	}
	if s.pk < len(s.sched.Picks) && s.sched.Picks[s.pk].Step == d.Seq {
		v := s.sched.Picks[s.pk].Value
		s.pk++
		if v < n {
			return v
		}
		s.diverge("recorded choice %d out of range %d at decision %d", v, n, d.Seq)
	}
	return 0
}

func (s *replayStrategy) End(o ExecOutcome) {
	switch {
	case s.sw < len(s.sched.Switches):
		s.diverge("execution ended at decision %d before the recorded switch at decision %d", o.Steps, s.sched.Switches[s.sw].Step)
	case s.walk != nil && o.Steps == s.sched.Steps && s.walk.draws != s.sched.WalkDraws:
		s.diverge("the walk drew %d numbers, the recording %d: the run chose among other goroutines or select cases somewhere in its %d steps",
			s.walk.draws, s.sched.WalkDraws, o.Steps)
	case o.Steps != s.sched.Steps && s.sched.Steps != 0:
		s.diverge("execution took %d steps, the recording %d%s", o.Steps, s.sched.Steps, s.afterLast())
	case s.trailCovers(o.Steps):
		// Every step agreed with the trail, by position: the fingerprint
		// may still differ where changed code renumbered the sites, so
		// only the draws are left to compare.
		if s.sched.Draws != 0 && o.Draws != s.sched.Draws {
			s.diverge("the run drew other random numbers than the recording (math/rand's global sources: another seed?); its %d steps agreed", o.Steps)
		}
	case s.sched.FP != 0 && o.FP != s.sched.FP:
		s.diverge("the run left the recorded path after the last recorded switch%s: same number of steps (%d), different goroutines or operations",
			s.afterLast(), o.Steps)
	}
}

// afterLast says where the path was last known to agree: at the last
// recorded switch (its fingerprint matched, or the run would have diverged
// there).
func (s *replayStrategy) afterLast() string {
	if len(s.sched.Switches) == 0 {
		return " (no switch was recorded: the path differs somewhere in the run)"
	}
	last := s.sched.Switches[len(s.sched.Switches)-1]
	return sprintf(" (the path agreed up to decision %d, where the recording was at %s (%s))", last.Step, sitePos(last.Site), siteOp(last.Site))
}

// trailCovers says whether the recorded trail holds step n (each step up
// to it was compared by position, which a renumbering of the sites by
// changed code elsewhere does not upset, unlike the fingerprint).
func (s *replayStrategy) trailCovers(n int) bool {
	return n <= len(s.sched.Trail) && len(s.sched.Trail) > 0
}

func (s *replayStrategy) diverge(format string, args ...any) {
	if s.diverged == "" {
		s.diverged = sprintf(format, args...)
	}
}

func (s *replayStrategy) Spec() Spec { return Spec{Name: "replay"} }

// walked: a replay of a walk records the walk's seed and draws, as the
// walk did (nil walk: the replay records its switches).
func (s *replayStrategy) walked() (seed uint64, draws int) { return s.walk.seed, s.walk.draws }

func idOf(g *G) int {
	if g == nil {
		return -2
	}
	return g.id
}

func curPos(d *Decision) string {
	if d.Cur == nil {
		return "(time passed)"
	}
	return gname(d.Cur.id) + " " + sitePos(d.Cur.site)
}

func curOp(d *Decision) string {
	if d.Cur == nil {
		return "-"
	}
	return siteOp(d.Cur.site)
}
