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

// endRun ends the run in progress at a context switch; crowded says
// whether other goroutines can run besides the one that runs next.
func (e *execution) endRun(crowded bool) {
	e.runsCredit += e.runCredit()
	e.runFrom, e.crowdedFrom = e.step, math.MaxInt
	if crowded {
		e.crowdedFrom = e.step
	}
}
