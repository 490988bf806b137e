package pct

import "time"

// A timer that -max-delay held back while goroutines kept running.
//
// gopct's clock does not run while code runs: time passes only as a
// scheduling choice, and while some goroutine can run only for a timer due
// within -max-delay (a runnable goroutine delayed that long; DESIGN.md,
// "Scheduling delays are bounded"). A test that keeps goroutines busy for a
// duration of real time (go-kit's TestRoundRobinNoRace: 100 goroutines call
// the balancer in a loop while the test sleeps 1 s, then stops them) never
// gets there: the busy goroutines can always run and keep changing memory,
// so the livelock windows see progress and the clock stays where it is
// until the execution is given up at the step limit. Letting the clock run
// with the work done would fire the timeouts that guard long computations
// (`select { case <-done: case <-time.After(5 * time.Second): t.Fatal }`)
// early, a false failure; so the hunt instead says which timer waited, and
// that -max-delay of at least its distance lets it fire (the user knows the
// test is meant to spin that long).

// heldTimer is, at a point where goroutines can run, the -max-delay that
// would let the next timer fire now when the bound keeps it from firing (0
// if it does not): the timer's distance, or more when the livelock windows
// have already let the clock run ahead of their steps (windowStepTime), as
// a test that spins for a duration while a fast ticker runs uses up the
// bound: ttlcache's TestCache_SkipTtlExtensionOnHit calls Get for 3 s of
// the clock, and only a bound of 3 s lets it end.
func (e *execution) heldTimer() time.Duration {
	if e.maxDelay <= 0 || e.lazyTime || !e.timers.pending(now) {
		return 0
	}
	d := e.timers.next(now()).Sub(now())
	_, wait := e.readyWaits() // more than the bound needs: the work since is left out
	need := max(wait, e.windowAhead+d-time.Duration(e.windowSteps)*windowStepTime)
	if need > e.maxDelay+sleepOvershoot {
		return need - sleepOvershoot // the bound allows the overshoot (timeCanPass)
	}
	return 0
}
