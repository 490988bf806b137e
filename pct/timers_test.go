package pct

import (
	"fmt"
	"testing"
	"time"
)

var timerEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// A timer due at a tick is moved to the first nanosecond no ticker ticks
// at; one due at no tick, or with another one-shot timer, keeps its deadline.
func TestTimerSetSeparate(t *testing.T) {
	var s timerSet
	s.add(timerEpoch.Add(time.Millisecond), time.Millisecond) // ticks at 1ms, 2ms, ...
	at80 := timerEpoch.Add(80 * time.Millisecond)
	if got := s.separate(at80); !got.Equal(at80.Add(time.Nanosecond)) {
		t.Fatalf("timer at a tick: got %v, want 80ms+1ns", got.Sub(timerEpoch))
	}
	s.add(timerEpoch.Add(time.Millisecond+time.Nanosecond), time.Millisecond) // ticks at 1ms+1ns, ...
	if got := s.separate(at80); !got.Equal(at80.Add(2 * time.Nanosecond)) {
		t.Fatalf("timer at ticks of two tickers: got %v, want 80ms+2ns", got.Sub(timerEpoch))
	}
	s.add(at80.Add(time.Microsecond), 0)
	if got := s.separate(at80.Add(time.Microsecond)); !got.Equal(at80.Add(time.Microsecond)) {
		t.Fatalf("timer at another timer's deadline moved to %v", got.Sub(timerEpoch))
	}
	before := timerEpoch.Add(500 * time.Microsecond) // before the first tick
	if got := s.separate(before); !got.Equal(before) {
		t.Fatalf("timer before the first tick moved to %v", got.Sub(timerEpoch))
	}
}

// When tickers tick at each of the maxSeparation nanoseconds from t, the
// deadline keeps its instant: the search is bounded.
func TestTimerSetSeparateGivesUp(t *testing.T) {
	var s timerSet
	for i := 0; i < maxSeparation; i++ {
		s.add(timerEpoch.Add(time.Millisecond+time.Duration(i)), time.Millisecond)
	}
	at := timerEpoch.Add(2 * time.Millisecond)
	if got := s.separate(at); !got.Equal(at) {
		t.Fatalf("got %v, want the deadline unchanged (2ms)", got.Sub(timerEpoch))
	}
}

// prune moves a ticker past now in one step: a 1ns ticker next to a 100ms
// sleep must not loop 10^8 times.
func TestTimerSetPruneWholePeriods(t *testing.T) {
	var s timerSet
	s.add(timerEpoch.Add(time.Nanosecond), time.Nanosecond)
	now := timerEpoch.Add(100 * time.Millisecond)
	s.prune(now)
	if want := now.Add(time.Nanosecond); !s.tick[0].Equal(want) {
		t.Fatalf("next tick %v, want 100ms+1ns", s.tick[0].Sub(timerEpoch))
	}
	s.prune(now.Add(-time.Millisecond)) // a tick already in the future stays
	if want := now.Add(time.Nanosecond); !s.tick[0].Equal(want) {
		t.Fatalf("next tick moved back to %v", s.tick[0].Sub(timerEpoch))
	}
}

// Tickers tick at least minTickerPeriod apart, and never more than
// -max-delay apart because of the floor.
func TestTickerPeriodFloor(t *testing.T) {
	for _, c := range []struct {
		maxDelay, d, want time.Duration
	}{
		{100 * time.Millisecond, time.Nanosecond, time.Millisecond},
		{100 * time.Millisecond, 30 * time.Nanosecond, time.Millisecond},
		{100 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond},
		{100 * time.Microsecond, time.Nanosecond, 100 * time.Microsecond},
		{0, time.Nanosecond, time.Millisecond},
	} {
		e := &execution{maxDelay: c.maxDelay}
		if got := e.tickerPeriod(c.d); got != c.want {
			t.Errorf("max-delay %v, period %v: got %v, want %v", c.maxDelay, c.d, got, c.want)
		}
	}
}

// A timer's lead and a sleep's overshoot added to the longest duration stay
// the longest duration: wrapped around, time.NewTimer(1<<63 - 1) fired at
// once (go-quartz's idle execution loop spun).
func TestAddDurationSaturates(t *testing.T) {
	const longest = time.Duration(1<<63 - 1)
	for _, c := range []struct{ d, x, want time.Duration }{
		{time.Second, 3, time.Second + 3},
		{longest, 1, longest},
		{longest - 2, 2, longest},
		{longest - 2, 3, longest},
		{longest, time.Microsecond, longest},
	} {
		if got := addDuration(c.d, c.x); got != c.want {
			t.Errorf("addDuration(%d, %d) = %d, want %d", c.d, c.x, got, c.want)
		}
	}
}

// A ticker made while a one-shot timer is pending ticks a few nanoseconds
// slower when one of its ticks would fall on the timer's deadline (testify's
// Never(200ms, 100ms): the timer, then the ticker); otherwise, and for
// deadlines already passed, it keeps its period.
func TestTimerSetSeparatePeriod(t *testing.T) {
	var s timerSet
	if got := s.separatePeriod(timerEpoch, 100*time.Millisecond); got != 100*time.Millisecond {
		t.Fatalf("no timer: got %v, want 100ms", got)
	}
	s.add(timerEpoch.Add(200*time.Millisecond), 0)
	if got := s.separatePeriod(timerEpoch, 100*time.Millisecond); got != 100*time.Millisecond+time.Nanosecond {
		t.Fatalf("timer at the second tick: got %v, want 100ms+1ns", got)
	}
	if got := s.separatePeriod(timerEpoch, 30*time.Millisecond); got != 30*time.Millisecond {
		t.Fatalf("timer at no tick: got %v, want 30ms", got)
	}
	s.add(timerEpoch.Add(200*time.Millisecond+2*time.Nanosecond), 0) // on the 100ms+1ns grid
	if got := s.separatePeriod(timerEpoch, 100*time.Millisecond); got != 100*time.Millisecond+2*time.Nanosecond {
		t.Fatalf("timers at the second tick of 100ms and of 100ms+1ns: got %v, want 100ms+2ns", got)
	}
	later := timerEpoch.Add(300 * time.Millisecond) // both deadlines passed
	if got := s.separatePeriod(later, 100*time.Millisecond); got != 100*time.Millisecond {
		t.Fatalf("deadlines passed: got %v, want 100ms", got)
	}
}

// TestTimerSetFirstTick: next, with the earliest tick kept aside, answers
// as a scan of every ticker does, as the clock moves past ticks, deadlines
// and tickers added later.
func TestTimerSetFirstTick(t *testing.T) {
	t0 := time.Unix(0, 0)
	var s timerSet
	s.add(t0.Add(7*time.Millisecond), 7*time.Millisecond)
	s.add(t0.Add(3*time.Millisecond), 3*time.Millisecond)
	s.add(t0.Add(10*time.Millisecond), 0)
	scan := func(now time.Time) time.Time {
		best := time.Time{}
		if len(s.at) > 0 {
			best = s.at[0]
		}
		for _, tk := range s.tick {
			if best.IsZero() || tk.Before(best) {
				best = tk
			}
		}
		return best
	}
	var got []int64
	for ms := int64(0); ms <= 30; ms += 2 {
		now := t0.Add(time.Duration(ms) * time.Millisecond)
		if ms == 12 {
			s.add(now.Add(time.Millisecond), 5*time.Millisecond)
		}
		n := s.next(now)
		if want := scan(now); !n.Equal(want) {
			t.Fatalf("at %dms: next %v, a scan %v", ms, n.Sub(t0), want.Sub(t0))
		}
		got = append(got, int64(n.Sub(t0)/time.Millisecond))
	}
	want := []int64{3, 3, 6, 7, 9, 12, 13, 15, 18, 21, 21, 23, 27, 27, 30, 33}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("next: %v, want %v", got, want)
	}
}
