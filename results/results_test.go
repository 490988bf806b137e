package results

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gopct/gopct/pct"
)

func TestWriteSummaryBug(t *testing.T) {
	s := &Summary{Test: "TestX", Package: "example.com/p", Strategy: "pct", Seed: 7, Executions: 12,
		Bug: &Bug{Replay: "gopct1.abc", BugReport: pct.BugReport{Kind: "fail", Message: "counter = 1", At: "p/p_test.go:9:3",
			Goroutine: "g0", Execution: 11, Preemptions: 1, Steps: 9,
			Trace:      []pct.TraceEvent{{Step: 3, From: "g1", To: "g2", At: "p/p.go:5:2", Op: "write n", Preemptive: true}},
			Goroutines: []pct.GInfo{{ID: "g1", State: "exited", At: "p/p.go:6:2", Parent: "g0", Created: "p/p_test.go:7:2"}}}}}
	var b bytes.Buffer
	WriteSummary(&b, s)
	out := b.String()
	for _, want := range []string{"BUG   example.com/p TestX: fail found in execution #11 (12 executions run",
		"counter = 1", "at p/p_test.go:9:3 in g0", "preemptions (c): 1",
		"step 3", "g1 -> g2", "(write n)", "preempted", "created by g0 at p/p_test.go:7:2",
		"gopct replay gopct1.abc"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteSummaryClean(t *testing.T) {
	var b bytes.Buffer
	WriteSummary(&b, &Summary{Test: "TestX", Package: "p", Strategy: "random", Seed: 1, Executions: 100, Finished: 98, Abandoned: 2})
	if !strings.Contains(b.String(), "no bug in 100 executions") || !strings.Contains(b.String(), "2 executions were given up as too long (98 finished)") {
		t.Errorf("output:\n%s", b.String())
	}
}

func TestWriteSummaryInconclusive(t *testing.T) {
	var b bytes.Buffer
	s := &Summary{Test: "TestX", Package: "p", Strategy: "pct", Seed: 1, Executions: 20, Finished: 0, Abandoned: 20}
	WriteSummary(&b, s)
	if !s.Inconclusive() || !strings.Contains(b.String(), "INCONCLUSIVE: only 0 of 20 executions ran to their end") {
		t.Errorf("output:\n%s", b.String())
	}
	s.Finished, s.Abandoned = 12, 8
	if s.Inconclusive() {
		t.Error("12 of 20 finished is inconclusive")
	}
}

// Executions given up while -max-delay held a timer back: the advice is
// the delay bound, not the step limit (pct/heldtimer.go).
func TestWriteSummaryHeldTimer(t *testing.T) {
	var b bytes.Buffer
	s := &Summary{Test: "TestX", Package: "p", Strategy: "pct", Seed: 1, Executions: 20, Abandoned: 20, HeldTimer: time.Second - 3}
	WriteSummary(&b, s)
	out := b.String()
	if !strings.Contains(out, "a timer waited") || !strings.Contains(out, "-max-delay 1s or more") || strings.Contains(out, "raise -max-steps") {
		t.Errorf("inconclusive:\n%s", out)
	}
	// Rounded up: -max-delay 100ms is the default that held a timer just
	// past it.
	b.Reset()
	s.HeldTimer = 100*time.Millisecond + 1200*time.Nanosecond
	WriteSummary(&b, s)
	if out := b.String(); !strings.Contains(out, "-max-delay 101ms or more") {
		t.Errorf("rounded:\n%s", out)
	}
	s.HeldTimer = time.Second - 3
	b.Reset()
	s.Finished, s.Abandoned = 15, 5
	WriteSummary(&b, s)
	if out := b.String(); !strings.Contains(out, "5 executions were given up") || !strings.Contains(out, "-max-delay 1s") {
		t.Errorf("clean:\n%s", out)
	}
}

func TestWriteTableMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, []string{"a", "b"}, [][]string{{"1", "2"}}, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| 1 | 2 |") {
		t.Errorf("markdown:\n%s", b.String())
	}
}

// A hunt that ended before any execution did tested nothing: it must not
// print "ok … no bug in 0 executions" (hunt exits 4 on it).
func TestWriteSummaryNothingRan(t *testing.T) {
	var b bytes.Buffer
	s := &Summary{Test: "TestX", Package: "p", Strategy: "pct", Seed: 1}
	WriteSummary(&b, s)
	if !s.NothingRan() || !strings.Contains(b.String(), "INCONCLUSIVE: no execution ran to its end") || strings.Contains(b.String(), "no bug") {
		t.Errorf("output:\n%s", b.String())
	}
	if s.Complete = true; s.NothingRan() {
		t.Error("a complete search of nothing is a result")
	}
}

// A replay token too long for one command-line argument comes with the
// @FILE form of the replay command.
func TestLongTokenNamesFileForm(t *testing.T) {
	long := &Summary{Package: "p", Test: "T", Executions: 1, Finished: 1,
		Bug: &Bug{Replay: "gopct1." + strings.Repeat("a", MaxArgLen), BugReport: pct.BugReport{Kind: "leak", Message: "m"}}}
	var b strings.Builder
	WriteSummary(&b, long)
	if !strings.Contains(b.String(), "gopct replay @FILE") {
		t.Fatalf("no @FILE advice for a %d-character token:\n%.300s", len(long.Bug.Replay), b.String())
	}
	short := &Summary{Package: "p", Test: "T", Executions: 1, Finished: 1,
		Bug: &Bug{Replay: "gopct1.abc", BugReport: pct.BugReport{Kind: "leak", Message: "m"}}}
	b.Reset()
	WriteSummary(&b, short)
	if strings.Contains(b.String(), "@FILE") {
		t.Fatalf("@FILE advice for a short token:\n%s", b.String())
	}
}
