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
// scheduling steps of the other goroutines taken since stand for
// (windowStepTime each): on a busy machine the others' work delays it too
// (readyWait). Two limits keep that excuse to what a real scheduler does.
//
// A goroutine's own steps never excuse its wait: they do not move the clock
// it reads, so a clock that jumps once it has been preempted says that it
// was not scheduled for the whole jump. buntdb's TestCoverShrinkShrink
// starts two Shrinks and wants the second to find the first in progress
// (the first sleeps 250 ms inside it); the test's goroutine ran 664,000
// steps of setup alone, was preempted at the second go statement, and the
// first Shrink's 250 ms sleep then passed at once, excused by the test's
// own 0.66 s of steps: a FALSE "expecting a shrink in process error" that
// assumed the test's goroutine delayed 250 ms right after it had run (sweep
// of stop 31; go test passes).
//
// And one goroutine's run does not delay the others without end: Go's
// sysmon preempts a goroutine that has run for 10 ms (forcePreemptNS in
// runtime/proc.go; it looks every 20 µs to 10 ms), and the preempted one
// goes behind those that wait. So a run (one goroutine's steps between two
// context switches) stands for its whole length only while no other
// goroutine can run; from the step another can, it stands for at most
// preemptQuantum more. go-co-op/gocron's executor waits for its jobs in a
// loop of time.Now and a select with default under a 1 s stop timeout: PCT
// kept the goroutines that signal the jobs' end below the loop for 928,000
// steps, which excused 0.93 s of waiting, and the 1 s timer fired once the
// signals were sent and before the loop took them ("gocron: timed out
// waiting for jobs to finish", TestScheduler_WithEventListeners, sweep of
// stop 30: a FALSE report assuming a goroutine delayed 1 s; go test
// passes). Testscripts sweep_spin_starved and sweep_own_work.

// preemptQuantum is how long one run may keep the others waiting: Go's
// 10 ms preemption and up to 10 ms until sysmon sees it.
const preemptQuantum = 20 * time.Millisecond

// workCredit is the work done so far by goroutines other than g, as it
// excuses g's wait (only the difference of two readings means something).
func (e *execution) workCredit(g *G) time.Duration {
	credit := e.runsCredit - g.ownCredit
	if e.runner != g {
		credit += e.runCredit()
	}
	return credit
}

// runCredit is the work the run in progress stands for.
func (e *execution) runCredit() time.Duration {
	alone := min(e.step, e.crowdedFrom) - e.runFrom
	crowded := max(0, e.step-e.crowdedFrom)
	return time.Duration(alone)*windowStepTime + min(time.Duration(crowded)*windowStepTime, preemptQuantum)
}

// endRun ends the run in progress at a context switch to next (nil: the
// clock); crowded says whether other goroutines can run besides next.
func (e *execution) endRun(next *G, crowded bool) {
	c := e.runCredit()
	e.runsCredit += c
	if e.runner != nil {
		e.runner.ownCredit += c
	}
	e.runner, e.runFrom, e.crowdedFrom = next, e.step, math.MaxInt
	if crowded {
		e.crowdedFrom = e.step
	}
}
