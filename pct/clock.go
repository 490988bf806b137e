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

// Now is time.Now().
func Now() time.Time {
	e, _ := self()
	if e == nil {
		return initNow()
	}
	e.readings++
	return now().Add(time.Duration(e.readings))
}

// Since is time.Since(t), read with Now.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until is time.Until(t), read with Now.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }
