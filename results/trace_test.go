package results

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gopct/gopct/pct"
)

// TestTraceStepOnce: two switches at the same scheduling step (a goroutine
// blocked, the token moved on) print the step number once (issue 9,
// item 11).
func TestTraceStepOnce(t *testing.T) {
	var b bytes.Buffer
	writeTrace(&b, []pct.TraceEvent{
		{Step: 6, From: "g3", To: "g0", At: "x.go:1:1", Preemptive: true},
		{Step: 6, From: "g0", To: "g3", At: "x.go:2:1", Reason: "waiting"},
		{Step: 8, From: "g3", To: "g2", At: "x.go:3:1", Reason: "exited"},
	}, 0, 0)
	if n := strings.Count(b.String(), "step 6"); n != 1 {
		t.Errorf("step 6 printed %d times:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), "step 8") || !strings.Contains(b.String(), "g0 -> g3") {
		t.Errorf("trace:\n%s", b.String())
	}
}

// TestLongTraceSummary: a trace of 1,244 switches (as issue 9 saw) shows
// the last 20 and the 30 preemptions before them, and says how many it
// left out; FullTrace (-verbose) shows them all.
func TestLongTraceSummary(t *testing.T) {
	var trace []pct.TraceEvent
	for i := 0; i < 1244; i++ {
		trace = append(trace, pct.TraceEvent{Step: 2 * i, From: "g1", To: "g2", At: fmt.Sprintf("x.go:%d:1", i), Preemptive: i%10 == 0})
	}
	var b bytes.Buffer
	writeTrace(&b, trace, 0, 0)
	out := b.String()
	if !strings.Contains(out, "interleaving (1244 context switches; shown: the last 20 and the 30 preemptions before them, all with -verbose)") {
		t.Errorf("no summary header:\n%s", out)
	}
	if got := strings.Count(out, "  step "); got != 50 {
		t.Errorf("%d switches shown, want 50", got)
	}
	if !strings.Contains(out, "step 2486") || strings.Contains(out, "step 2 ") || !strings.Contains(out, "... ") {
		t.Errorf("summary:\n%s", out)
	}
	FullTrace = true
	defer func() { FullTrace = false }()
	b.Reset()
	writeTrace(&b, trace, 0, 0)
	if got := strings.Count(b.String(), "  step "); got != 1244 {
		t.Errorf("-verbose: %d switches shown, want 1244", got)
	}
}

// TestUntracedSwitches: a trace that left switches out between its first
// and its last says so, and where.
func TestUntracedSwitches(t *testing.T) {
	var trace []pct.TraceEvent
	for i := 0; i < 2000; i++ {
		step := i
		if i >= 500 {
			step += 140000
		}
		trace = append(trace, pct.TraceEvent{Step: step, From: "g1", To: "g2", At: "x.go:1:1"})
	}
	var b bytes.Buffer
	writeTrace(&b, trace, 140000, 500)
	out := b.String()
	for _, want := range []string{
		"interleaving (142000 context switches, of which the trace keeps the first 500 and the last 1500; shown: the last 20",
		"1480 switches\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	// With -verbose the gap shows where it is.
	FullTrace = true
	defer func() { FullTrace = false }()
	b.Reset()
	writeTrace(&b, trace, 140000, 500)
	out = b.String()
	gap := strings.Index(out, "140000 switches not kept")
	if gap < 0 || strings.Count(out[:gap], "step ") != 500 || !strings.Contains(out[gap:], "\n  step 140500 ") {
		t.Errorf("-verbose: no gap after the first 500 switches:\n%s", out)
	}
}
