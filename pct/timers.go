package pct

import (
	"math"
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
	// firstTick is the earliest of tick (when there is one): prune and
	// next look at each ticker only when a tick is due. Stopped tickers
	// stay in tick, so a test that makes one per session (go-yamux's
	// TestStreamAfterShutdown: 400) scanned them all at every decision,
	// ~80% of its CPU (sweep fresh32).
	firstTick time.Time
}

func (s *timerSet) add(t time.Time, period time.Duration) {
	if period > 0 {
		s.tick = append(s.tick, t)
		s.period = append(s.period, period)
		if len(s.tick) == 1 || t.Before(s.firstTick) {
			s.firstTick = t
		}
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
	if len(s.tick) == 0 || s.firstTick.After(now) {
		return // no tick is due
	}
	for j := range s.tick {
		if !s.tick[j].After(now) {
			// Whole periods in one step: a long sleep next to a short
			// ticker would otherwise loop once per tick.
			missed := now.Sub(s.tick[j])/s.period[j] + 1
			s.tick[j] = s.tick[j].Add(missed * s.period[j])
		}
		if j == 0 || s.tick[j].Before(s.firstTick) {
			s.firstTick = s.tick[j]
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
	if len(s.tick) > 0 && (best.IsZero() || s.firstTick.Before(best)) {
		best = s.firstTick
	}
	return best
}

// addDuration returns d+x for a positive d and x >= 0, or the longest
// duration when the sum does not fit: go-quartz's execution loop parks on
// time.NewTimer(1<<63 - 1) while its queue is empty, and the readings'
// lead added to it wrapped around to a negative duration, so the timer
// fired at once and the loop spun (TestScheduler_BlockingSemantics, a
// false "job should have run at least once" after the spin used up the
// execution's steps).
func addDuration(d, x time.Duration) time.Duration {
	if d > math.MaxInt64-x {
		return math.MaxInt64
	}
	return d + x
}

// timerStart says from which clock a timer's duration counts.
type timerStart bool

const (
	// fromReadings: a duration counts from the program's latest clock
	// reading, which leads the bubble's clock by 1ns per reading
	// (clock.go): the timer is due that much later in fake time, so that
	// the instant its channel delivers, or a context's Deadline(), is at
	// least the duration after a time.Now() taken before it was set, as
	// with a real clock (otherwise `start := time.Now(); t := <-timer.C`
	// gave t.Sub(start) < d: time running backwards).
	fromReadings timerStart = true
	// fromInstant: the deadline is an absolute instant (WithDeadline),
	// already on the readings' clock when the program computed it from one.
	fromInstant timerStart = false
)

// noteTimer records a managed one-shot timer and returns the duration to
// give it: d (plus the readings' lead when the duration counts from them,
// see timerStart), or that plus a few nanoseconds when it ends at the
// instant of a managed ticker's tick (see separate).
func noteTimer(site int, d time.Duration, from timerStart) time.Duration {
	e, g := self()
	if e == nil {
		return d
	}
	e.point(g, site)
	if d <= 0 {
		return d
	}
	if from == fromReadings {
		d = addDuration(d, time.Duration(e.readings))
	}
	t := now()
	at := e.timers.separate(t.Add(d))
	e.timers.add(at, 0)
	e.unfast() // a timer is pending: points are decisions again
	e.note(EvTimer, g, site, 0)
	return at.Sub(t)
}

// separate returns the first instant from t on at which no managed ticker
// ticks. A timer and a tick due at the same instant fire in the order of
// the Go runtime's timer heap, and a select blocked on both channels adds
// them to that heap in its random poll order: which case a replay takes was
// left to chance (GoKer's kubernetes70277, a 1ms ticker and an 80ms timeout
// in one select: 3 of 5 replays reproduced). A real timer fires some time
// after its deadline, never exactly with a tick (the same reasoning as
// sleepOvershoot), so moving it by nanoseconds changes no outcome a real
// run can have. Only ticks are avoided, not other one-shot deadlines:
// stopped timers stay in the set, and a loop resetting a 1ns timer at one
// instant (GoKer's istio18454, 1,024 resets) would otherwise spread its
// deadlines over as many nanoseconds, each one more instant time must pass
// through (the leak at execution #2 was then not found in 134). Two
// one-shot timers due at one instant keep the runtime's order.
func (s *timerSet) separate(t time.Time) time.Time {
	for tries := 0; tries < maxSeparation; tries++ {
		if !s.ticksAt(t) {
			return t
		}
		t = t.Add(time.Nanosecond)
	}
	return t.Add(-maxSeparation * time.Nanosecond)
}

// maxSeparation bounds the search: tickers of many periods could tick at
// every nanosecond after t.
const maxSeparation = 64

// separatePeriod returns the period, from d on, of a ticker started at t
// whose ticks fall on no pending one-shot deadline. separate moves a timer
// made after a ticker; a ticker made after a timer would still tick at its
// deadline, and the timer and the tick would fire in the runtime's heap
// order (testify's assert.Never and Eventually make their timer, then
// their ticker: Never(200ms, 100ms) had its timer and its second tick at
// one instant, so whether its select returned or checked once more changed
// from run to run, and ttlcache's Test_Cache_OnEviction replayed 1 of 10).
// A tick's instant cannot move alone (the runtime ticks at t+k*period), so
// the period grows by nanoseconds and the tick comes after the timer, as
// it does in a real run, where the ticker is made later than the timer
// (and a real tick comes some time after its instant anyway). The other
// order at that instant is still explored, as in a real run: when the
// select's goroutine is delayed past both. (ttlcache's stale Never check
// needs that, a delay of about 100ms: with this, 200 executions no longer
// find it.) When every period up to d+maxSeparation-1 hits a deadline, d
// is kept.
func (s *timerSet) separatePeriod(t time.Time, d time.Duration) time.Duration {
	if len(s.at) == 0 {
		return d
	}
	s.prune(t)
	for p := d; p < d+maxSeparation; p++ {
		if !s.deadlineOnGrid(t, p) {
			return p
		}
	}
	return d
}

// deadlineOnGrid says whether a one-shot deadline falls at t+k*p, k >= 1.
func (s *timerSet) deadlineOnGrid(t time.Time, p time.Duration) bool {
	for _, at := range s.at {
		if at.After(t) && at.Sub(t)%p == 0 {
			return true
		}
	}
	return false
}

// ticksAt says whether a managed ticker ticks exactly at t.
func (s *timerSet) ticksAt(t time.Time) bool {
	for j, tick := range s.tick {
		if !tick.After(t) && t.Sub(tick)%s.period[j] == 0 {
			return true
		}
	}
	return false
}

// noteTicker records a managed ticker and returns the period it ticks at:
// d, or minTickerPeriod when d is shorter (see there).
func noteTicker(site int, d time.Duration) time.Duration {
	e, g := self()
	if e == nil {
		return d
	}
	e.point(g, site)
	if d <= 0 {
		return d
	}
	t := now()
	d = e.timers.separatePeriod(t, e.tickerPeriod(d))
	e.timers.add(t.Add(d), d)
	e.unfast()
	e.note(EvTimer, g, site, 0)
	return d
}

// minTickerPeriod is the shortest period of a managed ticker. The fake clock
// runs code in no time, so a ticker of 1ns (GoKer's etcd7492) or 30ns
// (istio17860) delivers a tick for every nanosecond that passes while the
// test sleeps: 10^8 ticks for a 100ms sleep, and no execution ends (1µs:
// 1.5s per execution). A real ticker drops the ticks a slow receiver misses,
// and a receiver that takes 1ms per tick is a goroutine delayed by 1ms, a
// delay gopct already assumes possible (-max-delay, 100ms by default); so
// the ticks of the longer period are ticks a real run can see, and no
// report needs a shorter one. The floor is never above -max-delay.
const minTickerPeriod = time.Millisecond

func (e *execution) tickerPeriod(d time.Duration) time.Duration {
	floor := minTickerPeriod
	if e.maxDelay > 0 && e.maxDelay < floor {
		floor = e.maxDelay
	}
	if d < floor {
		return floor
	}
	return d
}
