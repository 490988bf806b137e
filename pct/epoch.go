package pct

import "time"

// A synctest bubble's clock starts at 2000-01-01 00:00:00 UTC, while the
// program's package-level state was made at init, in real time: inside
// the bubble time ran 26 years backwards. gobreaker's package-level
// breakers (an expiry made at init) then never expired in the test, and
// cron's job "at second 1 of January 1st" fired in the test's first
// second: false reports on correct tests. An execution's clock starts at
// the process's epoch instead: the real time at which the process began
// its first execution, after every init, as under go test, where a test
// runs just after init. Every execution of a process starts at the same
// instant. A replay runs in a process of its own, so its clock starts at
// its own epoch, after its own init: elapsed times, and the order of the
// test's times against init's, are the hunt's; a path that depends on the
// absolute time (a date, a second boundary) may differ, as it does from
// one go test run to the next. Sources seeded from the clock are seeded
// deterministically (TimeSeed).

// clockEpoch is the unix time (ns) at which this process's executions
// start: 0 until the first execution.
var clockEpoch int64

// processEpoch returns the epoch, taking the real time on first use. It
// runs outside the bubbles, where time.Now is real.
func processEpoch() int64 {
	if clockEpoch == 0 {
		clockEpoch = time.Now().UnixNano()
	}
	return clockEpoch
}

// startClock advances the bubble's fake clock to the epoch, before the
// test's goroutine exists: the bubble holds no other goroutine, so the
// sleep returns at once, at exactly the epoch.
func startClock(unixNano int64) {
	if d := time.Unix(0, unixNano).Sub(time.Now()); d > 0 {
		time.Sleep(d)
	}
}
