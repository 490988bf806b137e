package pct

import (
	"sync"
	"sync/atomic"
	"time"
)

// A synctest bubble's clock starts at 2000-01-01 00:00:00 UTC, while the
// program's package-level state was made at init, in real time: inside
// the bubble time ran 26 years backwards. gobreaker's package-level
// breakers (an expiry made at init) then never expired in the test, and
// cron's job "at second 1 of January 1st" fired in the test's first
// second: false reports on correct tests. An execution's clock starts at
// the process's epoch instead: the real time at which the process began
// its first execution, after every init, as under go test, where a test
// runs just after init. Every execution of a process starts at the same
// instant. (A fixed epoch far enough in the future would keep hunts
// deterministic, but init's times would lie months before the test:
// gobreaker's TestGeneration expects a generation made at init to expire
// one second into the test.)
//
// A bug report carries its execution's epoch, and so does its replay token
// (not the schedule, which stays the same whatever the process): a replay
// starts at the hunt's instant, so that times in the run (a log line's
// timestamp in a crash message) are the recording's. The replay's own init
// ran later, in real time; so that init's times stay just before the
// epoch, as in the hunt, the replay process's clock readings before its
// first execution (Now, in instrumented code) move to 1s before it. A
// token without an epoch replays at the bubble's own start, as before.

var (
	clockEpoch    int64       // unix ns at which this process's executions start
	clockEpochSet bool        // clockEpoch is decided: by the first execution, or by the replayed token
	begun         atomic.Bool // an execution has begun in this process (read by any goroutine)
)

// processEpoch returns the epoch, taking the real time on first use, and
// notes that executions have begun. It runs outside the bubbles, where
// time.Now is real.
func processEpoch() int64 {
	begun.Store(true)
	if !clockEpochSet {
		clockEpoch, clockEpochSet = time.Now().UnixNano(), true
	}
	return clockEpoch
}

// useEpoch makes a replay start its executions at the recorded epoch.
func useEpoch(unixNano int64) { clockEpoch, clockEpochSet = unixNano, true }

// startClock advances the bubble's fake clock to the epoch, before the
// test's goroutine exists: the bubble holds no other goroutine, so the
// sleep returns at once, at exactly the epoch.
func startClock(unixNano int64) {
	if d := time.Unix(0, unixNano).Sub(time.Now()); unixNano != 0 && d > 0 {
		time.Sleep(d)
	}
}

// processStart is the real time at which this package initialised, before
// the packages that import it (the program's).
var processStart = time.Now()

// initShift is what a replay process adds to its clock readings before its
// first execution: its start moves to the recording process's start, as
// far before the recorded epoch as that was (Config.InitLead), so that
// init's readings are the recording's to within init's own jitter:
// fasthttp keeps time.Now().Unix()-startTimeUnix (a reading at init) and
// stores it only when the second changed, so a replay whose init read 1s
// before the epoch, where the hunt's read the epoch's second, took another
// path (found in the sweep, fresh35). A token without InitLead: 1s before
// the epoch (init taking less than that, init's times stay before it). 0
// in a hunt.
var initShift = sync.OnceValue(func() time.Duration {
	c, err := loadConfig()
	if err != nil || c == nil || c.Spec.Name != "replay" || c.Epoch == 0 {
		return 0
	}
	lead := time.Second
	if c.InitLead > 0 {
		lead = time.Duration(c.InitLead)
	}
	return time.Unix(0, c.Epoch).Add(-lead).Sub(processStart)
})

// initLead is what a bug report records of this process: how long before
// epoch it started (0 in a replay process, whose start was shifted).
func initLead(epoch int64) int64 {
	if initShift() != 0 {
		return 0
	}
	return epoch - processStart.UnixNano()
}

// initNow is time.Now outside executions: shifted by initShift in a replay
// process before its first execution.
func initNow() time.Time {
	if begun.Load() {
		return time.Now()
	}
	return time.Now().Add(initShift())
}
