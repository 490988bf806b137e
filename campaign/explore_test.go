package campaign

import (
	"fmt"
	"testing"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

func TestCoverageCurve(t *testing.T) {
	classes := make([]uint64, 1000)
	for i := range classes {
		classes[i] = uint64(i % 7) // 7 classes, all seen by execution 7
	}
	curve := coverageCurve(classes)
	if len(curve) > coveragePoints {
		t.Errorf("%d points, at most %d wanted", len(curve), coveragePoints)
	}
	if curve[0] != (results.CoveragePoint{Executions: 1, Classes: 1}) || curve[6].Classes != 7 {
		t.Errorf("curve starts %v", curve[:8])
	}
	if last := curve[len(curve)-1]; last != (results.CoveragePoint{Executions: 1000, Classes: 7}) {
		t.Errorf("last point %v", last)
	}
	recs := []pct.Record{{Type: pct.RecDone, Classes: []uint64{1, 3}}, {Type: pct.RecDone, Classes: []uint64{2}}}
	if got := executionClasses(recs); fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("interleaved %v, want [1 2 3]", got)
	}
}

// TestThreadsConstrained: t from the switches of a failing schedule.
func TestThreadsConstrained(t *testing.T) {
	sw := func(from, to string, preemptive bool) pct.TraceEvent {
		return pct.TraceEvent{From: from, To: to, Preemptive: preemptive}
	}
	bug := func(c int, trace ...pct.TraceEvent) *results.Bug {
		return &results.Bug{BugReport: pct.BugReport{Preemptions: c, Trace: trace}}
	}
	cases := []struct {
		name string
		bug  *results.Bug
		want int
	}{
		// Figure 9: the reader is preempted, both incrementers run before it resumes.
		{"window", bug(1, sw("g0", "g1", false), sw("g1", "g3", true), sw("g3", "g2", false), sw("g2", "g1", false), sw("g1", "g0", false)), 3},
		// Figure 2: one incrementer in the window; the test goroutine only waits.
		{"two", bug(1, sw("g0", "g1", false), sw("g1", "g2", true), sw("g2", "g1", false), sw("g1", "g0", false)), 2},
		// Figure 8: no preemption, three goroutines run in order; g0 does not count.
		{"order", bug(0, sw("g0", "g3", false), sw("g3", "g2", false), sw("g2", "g1", false), sw("g1", "g0", false)), 3},
		// Time is not a goroutine, and t is at least 2.
		{"time", bug(0, sw("g0", "time", false), sw("time", "g1", false)), 2},
	}
	for _, c := range cases {
		if got := threadsConstrained(c.bug); got != c.want {
			t.Errorf("%s: t = %d, want %d", c.name, got, c.want)
		}
	}
}

// Workers report the same race with other goroutines and the accesses in
// the other order: one bug per site pair (its key), other bugs per message.
func TestDistinctBugsOneRacePerSitePair(t *testing.T) {
	bug := func(kind pct.FailureKind, msg, key string) pct.Record {
		return pct.Record{Type: pct.RecBug, Bug: &pct.BugReport{Kind: kind, Message: msg, At: "x.go:3", Key: key}}
	}
	recs := []pct.Record{
		bug(pct.FailRace, "data race on x: write at x.go:3 by g2, unordered with the read at x.go:7 by g3", "race 1 2"),
		bug(pct.FailRace, "data race on x: read at x.go:7 by g4, unordered with the write at x.go:3 by g2", "race 1 2"),
		bug(pct.FailRace, "data race on y: write at x.go:3 by g2, unordered with the write at x.go:9 by g3", "race 1 5"),
		bug(pct.FailPanic, "boom", ""),
		bug(pct.FailPanic, "boom", ""),
	}
	report := func(r *pct.BugReport) *results.Bug { return &results.Bug{BugReport: *r} }
	var got []string
	for _, b := range distinctBugs(recs, report, false) {
		got = append(got, b.Message)
	}
	want := []string{recs[0].Bug.Message, recs[2].Bug.Message, "boom"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("distinct bugs %q, want %q", got, want)
	}
	if n := len(distinctBugs(recs, report, true)); n != len(recs) {
		t.Errorf("with all: %d bugs, want %d", n, len(recs))
	}
}
