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

// Now is time.Now().
func Now() time.Time {
	e, _ := self()
	if e == nil {
		return initNow()
	}
	if !e.standstill {
		e.readings++
	}
	return now().Add(time.Duration(e.readings))
}

// Since is time.Since(t), read with Now.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until is time.Until(t), read with Now.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }
