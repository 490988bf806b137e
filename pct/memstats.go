package pct

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A test that measures memory (runtime.ReadMemStats, testing.AllocsPerRun)
// measures the whole process, and under gopct the process also runs the
// scheduler, the race detector and the trace, which allocate at every
// scheduling point of the code measured. klauspost/pgzip's TestAllocations
// (sweep fresh34) read 191 148 bytes allocated per Write where go test reads
// about 660, failed "Pool used incorrectly?" in every execution, and the
// count differed from run to run, so even its replay diverged. gopct cannot
// take its own allocations out of the figures, so a test failure after a
// measurement is not reported as a bug: it is an environment error that says
// why (memStatsFailure). Panics, deadlocks, leaks and races are reported as
// always.

// ReadMemStats is runtime.ReadMemStats(m).
func ReadMemStats(site int, m *runtime.MemStats) {
	noteMemStats(site, "runtime.ReadMemStats")
	runtime.ReadMemStats(m)
}

// AllocsPerRun is testing.AllocsPerRun(runs, f).
func AllocsPerRun(site int, runs int, f func()) float64 {
	noteMemStats(site, "testing.AllocsPerRun")
	return testing.AllocsPerRun(runs, f)
}

// noteMemStats marks the caller's execution as one that measured the
// process's memory, at the first such call.
func noteMemStats(site int, what string) {
	if e, _ := self(); e != nil && e.memStats == "" {
		e.memStats, e.memStatsSite = what, site
	}
}

// memStatsFailure turns the test failure of an execution that measured
// memory into an environment error (see above).
func (e *execution) memStatsFailure() {
	f := e.failure
	if f == nil || e.memStats == "" || f.Kind != FailTest {
		return
	}
	e.failure = &Failure{Kind: FailUnsupported, Site: f.Site, Goroutine: f.Goroutine, Step: f.Step, Message: fmt.Sprintf(
		"the test failed (%s) after it measured memory (%s at %s): under gopct the process also runs the scheduler "+
			"and its race detector, which allocate in the code measured, so gopct cannot tell the program's "+
			"allocations from its own; hunt a test that does not measure memory",
		firstText(f.Message), e.memStats, sitePos(e.memStatsSite))}
}

// firstText is the first line of msg that is not blank, trimmed.
func firstText(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return msg
}
