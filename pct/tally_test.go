package pct

import (
	"encoding/base64"
	"slices"
	"sync"
	"testing"
)

// TestProgLongLostUpdate: two goroutines add 1 to counter 100,000 times
// each without synchronisation: a preemption between a load and its store
// loses updates. Its 400,000 memory steps run mostly in tally batches.
func TestProgLongLostUpdate(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for i := 0; i < 100_000; i++ {
					Store(sW, &counter, Load(sR, &counter)+1)
				}
			})
		}
		WGWait(sWG, &wg)
		if counter != 200_000 {
			TError(sFail, t, "Fatal", "lost updates")
		}
	})
}

// TestTallyKeepsTheSchedule: a bug whose change point falls past the trail,
// found by executions whose accesses mostly ran in tally batches (which
// count them without entering the runtime), replays exactly: the replay
// enters the runtime at every access and checks the steps of the switches
// and the end, so a batch counts the steps and decisions as the slow path
// does. The preemptions fall at the steps pinned from gopct before the
// tally (1a61046), so PCTVB's per-variable counts are those of the slow
// path too.
func TestTallyKeepsTheSchedule(t *testing.T) {
	checkBatchedSchedules(t, "TestProgLongLostUpdate", "lost updates", []batchedCase{
		{"pct", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 20}, 1, []int{3, 179044, 179046, 374384}},
		{"pctvb", Config{Spec: Spec{Name: "pctvb", D: 3}, Seed: 1, Iters: 20, VarSites: [][]int{{sR, sW}},
			Sites: []int{sR, sW}}, 1, []int{5, 79999, 111763}},
	})
}

// batchedCase is a hunt of a long program whose first bug is pinned: its execution and its preemptive switches, as gopct made
// them before the batches it tests.
type batchedCase struct {
	name     string
	cfg      Config
	exec     int
	switches []int
}

// checkBatchedSchedules runs each case's hunt of prog and checks that it
// finds the pinned bug (its message) past the trail, with most steps tallied, and that
// the bug replays (with the case's active sites), entering the runtime at
// every step.
func checkBatchedSchedules(t *testing.T, prog, message string, cases []batchedCase) {
	t.Helper()
	for _, c := range cases {
		b, done := huntWith(t, prog, c.cfg)
		if b == nil || b.Message != message {
			t.Fatalf("%s: no %q in %d executions: %+v", c.name, message, done.Executions, done)
		}
		t.Logf("%s: execution %d, step %d, %d preemptions, %d tallied, switches %v", c.name, b.Execution, b.Steps, b.Preemptions, done.Tallied, switchSteps(b))
		if b.Execution != c.exec || b.Steps <= maxTrailSteps {
			t.Errorf("%s: found in execution %d at step %d, want execution %d past step %d", c.name, b.Execution, b.Steps, c.exec, maxTrailSteps)
		}
		if got := switchSteps(b); !slices.Equal(got, c.switches) {
			t.Errorf("%s: preemptions at steps %v, want %v", c.name, got, c.switches)
		}
		if tallyOn && done.Tallied < int64(b.Steps)/4 {
			t.Errorf("%s: %d steps tallied, want most of the executions' (%d in the last)", c.name, done.Tallied, b.Steps)
		}
		if r := replayUnder(t, prog, c.cfg, b); r.Diverged != "" || r.Outcome == nil || r.Outcome.Message != b.Message {
			t.Fatalf("%s: replay diverged (%s) or did not fail (%+v)", c.name, r.Diverged, r.Outcome)
		}
	}
}

// TestTallySiteNeedsLikeSites: PCTVB counts a batch at one site only when
// every active memory site counts for the same tracked variables.
func TestTallySiteNeedsLikeSites(t *testing.T) {
	x := newPCTVB(Spec{Name: "pctvb", D: 3}, [][]int{{sR, sW}, {sR2}})
	if got := x.tallySite([]int{sR, sW}); got != sR {
		t.Errorf("sites of one variable: %d, want %d", got, sR)
	}
	if got := x.tallySite([]int{sR, sW, sR2}); got != -1 {
		t.Errorf("sites of two variables: %d, want -1", got)
	}
	if got := x.tallySite(nil); got != -1 {
		t.Errorf("no site: %d, want -1", got)
	}
}

// TestOldSchedulesForgetFingerprintsPastTheTrail: a schedule of format 5
// hashed memory steps past the trail, one of format 6 the steps of mutexes
// and atomics; decoded now, their fingerprints are dropped when they are
// longer than the trail, kept otherwise.
func TestOldSchedulesForgetFingerprintsPastTheTrail(t *testing.T) {
	for _, format := range []uint64{5, 6} {
		for _, steps := range []int{1000, maxTrailSteps + 1} {
			s := Schedule{Steps: steps, FP: 77, Switches: []SwitchEvent{{Step: 3, To: 1, FP: 99, Site: 2}}}
			got, err := DecodeSchedule(encodeWithFormat(t, s, format))
			if err != nil {
				t.Fatal(err)
			}
			keep := steps <= maxTrailSteps
			if (got.FP == 77) != keep || (got.Switches[0].FP == 99) != keep {
				t.Errorf("format %d, %d steps: fingerprints %d, %d; kept: %v", format, steps, got.FP, got.Switches[0].FP, keep)
			}
		}
	}
}

// encodeWithFormat encodes s as an older gopct did: the same bytes under
// another format number.
func encodeWithFormat(t *testing.T, s Schedule, format uint64) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s.Encode())
	if err != nil || len(b) == 0 || b[0] != scheduleFormat {
		t.Fatalf("encoding starts with %v (%v)", b, err)
	}
	b[0] = byte(format)
	return base64.RawURLEncoding.EncodeToString(b)
}

// switchSteps lists the steps of a bug's preemptive switches.
func switchSteps(b *BugReport) []int {
	var out []int
	for _, ev := range b.Trace {
		if ev.Preemptive {
			out = append(out, ev.Step)
		}
	}
	return out
}

// TestTallyInWindows: once a livelock window has seen progress, the points
// of each turn run in tally batches too, and the execution takes the steps
// it took before the tally (pinned from 1a61046): the same window turns.
func TestTallyInWindows(t *testing.T) {
	recs := campaign(t, "TestProgLongThenFail", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 1})
	b, done := recs[0].Bug, recs[len(recs)-1]
	if b == nil {
		t.Fatalf("no bug: %+v", done)
	}
	if b.Steps != 2_400_007 {
		t.Errorf("failed at step %d, want 2,400,007", b.Steps)
	}
	// Two windows (2^20, 2^21) of liveWindow points: tallies beyond the
	// steps outside them and the trail are points inside them.
	if outside := int64(b.Steps - maxTrailSteps - 2*liveWindow); tallyOn && done.Tallied <= outside {
		t.Errorf("%d accesses tallied, no more than the %d outside the windows and the trail", done.Tallied, outside)
	}
}

// TestProgManyPoints makes 1,000,000 tracked loads in one goroutine: past
// the trail, they run in tally batches.
func TestProgManyPoints(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		for i := 0; i < manyPoints; i++ {
			sink += Load(sR, &counter)
		}
	})
}

const manyPoints = 1_000_000

// BenchmarkTalliedPoint: CPU per tracked load that lets the holder go on,
// in executions of a million of them (mostly tally batches; the first
// 16,384 of each take the fast bound's path, BenchmarkActivePoint),
// against a plain load (plainLoadLoop, the same loop uninstrumented) in
// the same run. The worker's CPU of 21 executions minus that of 1, best of
// 5.
// go test ./pct -run XXX -bench TalliedPoint -benchtime 1x
func BenchmarkTalliedPoint(b *testing.B) {
	ns := pointCPU(b, "TestProgManyPoints", 21, manyPoints)
	native := fastest(20, manyPoints, plainLoadLoop)
	for _, name := range []string{"pct", "pctvb"} {
		b.ReportMetric(ns[name], "cpu-ns/point-"+name)
		b.ReportMetric(ns[name]/native, "x-plain-load-"+name)
	}
	b.ReportMetric(0, "ns/op")
}
