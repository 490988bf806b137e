package pct

import (
	"sort"
	"time"
)

// timerSet is the scheduler's list of instants at which a timer created
// through instrumented code may fire. It is conservative: a stopped timer
// stays in the list, and letting time pass to its deadline only advances the
// fake clock. The strategy is offered "time" as a choice only when some
// instant lies in the future, so passing time never makes the bubble report
// a false deadlock.
type timerSet struct {
	at     []time.Time     // one-shot deadlines, sorted
	period []time.Duration // tickers: next tick and period
	tick   []time.Time
}

func (s *timerSet) add(t time.Time, period time.Duration) {
	if period > 0 {
		s.tick = append(s.tick, t)
		s.period = append(s.period, period)
		return
	}
	i := sort.Search(len(s.at), func(i int) bool { return s.at[i].After(t) })
	s.at = append(s.at, time.Time{})
	copy(s.at[i+1:], s.at[i:])
	s.at[i] = t
}

// prune drops deadlines that have passed and moves tickers forward.
func (s *timerSet) prune(now time.Time) {
	i := 0
	for i < len(s.at) && !s.at[i].After(now) {
		i++
	}
	s.at = s.at[i:]
	for j := range s.tick {
		for !s.tick[j].After(now) {
			s.tick[j] = s.tick[j].Add(s.period[j])
		}
	}
}

func (s *timerSet) pending(now func() time.Time) bool {
	if len(s.at) == 0 && len(s.tick) == 0 {
		return false // the common case: no call to time.Now
	}
	s.prune(now())
	return len(s.at) > 0 || len(s.tick) > 0
}

// next returns the earliest future instant; pending must be true.
func (s *timerSet) next(now time.Time) time.Time {
	s.prune(now)
	var best time.Time
	if len(s.at) > 0 {
		best = s.at[0]
	}
	for _, t := range s.tick {
		if best.IsZero() || t.Before(best) {
			best = t
		}
	}
	return best
}

func noteTimer(site int, d time.Duration) {
	if e, g := self(); e != nil {
		e.point(g, site)
		if d > 0 {
			e.timers.add(now().Add(d), 0)
			e.note(EvTimer, g, site, 0)
		}
	}
}

func noteTicker(site int, d time.Duration) {
	if e, g := self(); e != nil {
		e.point(g, site)
		if d > 0 {
			e.timers.add(now().Add(d), d)
			e.note(EvTimer, g, site, 0)
		}
	}
}
