package pct

import "time"

// In a bubble the clock stands still while goroutines run: two time.Now
// calls with no sleep between them return the same instant. A real clock
// always moves between two readings that have code between them.
// gobreaker's tests open a breaker (expiry = now + timeout), move the
// expiry back by exactly the timeout, and expect State() to see it passed
// (expiry.Before(now)): in fake time now equalled the expiry, and gopct
// reported a failure in every execution that no real run can show. The
// instrumenter rewrites time.Now, time.Since and time.Until into Now,
// Since and Until: inside an execution every reading is 1ns later than
// the one before, on top of the bubble's clock (the readings lead it by
// 1ns per reading so far, a stand-in for the time the code between them
// takes). Timers keep the bubble's clock: a reading taken before a timer
// fires is still earlier than one taken after it.

// A test that calls synctest.Test itself asks for a bubble's clock: two
// readings with no sleep between them are equal, and such tests assert it
// (otter's TestCoarseClock_UpdatesOncePerResolution expects its coarse
// clock's reading to equal time.Now() until the next tick). From its
// synctest.Test on (SynctestTest), readings keep the lead they had and no
// longer move by themselves.

// A goroutine that spins on the clock waits for time, and real time passes
// while it spins: bwmarrin/snowflake's Generate hands out 4,096 IDs per
// millisecond and then loops on time.Since until the next millisecond
// (snowflake.go:145). Its readings move (1ns each), but a livelock window
// counted only memory, and with no timer pending nothing let time pass: a
// FALSE livelock in TestGenerateDuplicateID, which takes 250 ms natively
// (testscript sweep_clock_spin). A reading that moves is progress in a
// window: such a spin is given up at the step limit (too long, not a bug),
// as any loop whose end gopct cannot bring about.

// Now is time.Now().
func Now() time.Time {
	e, _ := self()
	if e == nil {
		return initNow()
	}
	if !e.standstill {
		e.readings++
		if lc := e.live; lc != nil && !lc.progress {
			e.progressMade()
		}
	}
	return now().Add(time.Duration(e.readings))
}

// Since is time.Since(t), read with Now.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until is time.Until(t), read with Now.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }
