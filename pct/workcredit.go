package pct

import (
	"math"
	"time"
)

// Work that excuses a runnable goroutine's wait.
//
// A timer fires while goroutines can run only if none of them will have
// waited longer than -max-delay (timeCanPass); the wait is the clock's
// advance since the goroutine became able to run, less the work the
// scheduling steps taken since stand for (windowStepTime each): on a busy
// machine the others' work delays it too (readyWait). But a real scheduler
// does not let one goroutine run on while others wait: Go's sysmon
// preempts a goroutine that has run for 10 ms (forcePreemptNS in
// runtime/proc.go; it looks every 20 µs to 10 ms), and the preempted one
// goes behind those that wait. So a run (one goroutine's steps between two
// context switches) stands for its whole length only while no other
// goroutine can run; from the step another can, it stands for at most
// preemptQuantum more, for every goroutine, the runner too. The runner's
// own steps do not move the clock: a loop that spins for a second on
// time.Now while others can run reads the same time throughout, and a
// clock that then jumps a second says that the loop was not scheduled for
// that second. go-co-op/gocron's executor waits for its jobs so, in a loop
// of time.Now and a select with default under a 1 s stop timeout: PCT kept
// the goroutines that signal the jobs' end below the loop for 928,000
// steps, which excused 0.93 s of waiting, and the 1 s timer fired once the
// signals were sent and before the loop took them ("gocron: timed out
// waiting for jobs to finish", TestScheduler_WithEventListeners, sweep of
// stop 30: a FALSE report assuming a goroutine delayed 1 s, over the
// 100 ms bound; go test passes). Testscript sweep_spin_starved.

// A goroutine that ran and was preempted waits from then on: the clock
// moving past -max-delay (less the others' work) before it runs again is a
// delay of that long, whatever it did before. The wait since it became
// able to run is bounded too, and its own steps count there: they stand for
// the real time its work took, during which a clock that does not move
// while code runs must catch up (a loop that spins for 500 ms of
// time.Since beside a 1 ms ticker, testscript sweep_window_clock_rate). But
// that catching up is for the goroutine that runs: buntdb's
// TestCoverShrinkShrink starts two Shrinks and wants the second to find the
// first in progress (it sleeps 250 ms inside); the test's goroutine ran
// 664,000 steps of setup alone, was preempted at its second go statement,
// and the first Shrink's 250 ms sleep passed at once, excused by the test's
// own 0.66 s of steps: a FALSE "expecting a shrink in process error" that
// assumed it delayed 250 ms right after it ran (sweep of stop 31, one
// worker; go test passes). Testscript sweep_own_work.

// preemptQuantum is how long one run may keep the others waiting: Go's
// 10 ms preemption and up to 10 ms until sysmon sees it.
const preemptQuantum = 20 * time.Millisecond

// workCredit is the work done so far as it excuses a wait (only the
// difference of two readings means something).
func (e *execution) workCredit() time.Duration {
	return e.runsCredit + e.runCredit()
}

// runCredit is the work the run in progress stands for.
func (e *execution) runCredit() time.Duration {
	alone := min(e.step, e.crowdedFrom) - e.runFrom
	crowded := max(0, e.step-e.crowdedFrom)
	return time.Duration(alone)*windowStepTime + min(time.Duration(crowded)*windowStepTime, preemptQuantum)
}

// endRun ends the run in progress at a context switch to next (nil: the
// clock); crowded says whether other goroutines can run besides next. The
// runner, if it can still run, notes when it was preempted.
func (e *execution) endRun(next *G, crowded bool) {
	e.runsCredit += e.runCredit()
	if r := e.runner; r != nil && r != next {
		r.ranAt, r.ranWork = now(), e.runsCredit
	}
	e.runner, e.runFrom, e.crowdedFrom = next, e.step, math.MaxInt
	if crowded {
		e.crowdedFrom = e.step
	}
}
