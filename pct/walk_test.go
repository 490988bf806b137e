package pct

import (
	"encoding/base64"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestProgWalkLong: two goroutines add to one counter, 10,000 times each,
// every access a conflicting one, so the random walk draws at every step
// and switches at about every other; then the test fails.
func TestProgWalkLong(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		sum := 0
		for range 2 {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for i := 0; i < 10_000; i++ {
					Store(sW, &sum, Load(sR, &sum)+1)
				}
			})
		}
		WGWait(sWG, &wg)
		TError(sFail, t, "Fatal", "done")
	})
}

// TestWalkScheduleIsItsSeed: a random walk's schedule is its seed and its
// number of draws, not its switches (issue 9: a 2.4M-step walk recorded 12
// MB), so the token of an execution that switched twenty thousand
// times stays small, and the replay walks again exactly. A schedule whose
// seed or draws are not the recording's is reported as diverging.
func TestWalkScheduleIsItsSeed(t *testing.T) {
	b := mustFind(t, "TestProgWalkLong", "random", 1, 1, "fail") // replays it
	t.Logf("schedule of %d bytes, %d steps, %d preemptions", len(b.Schedule), b.Steps, b.Preemptions)
	if b.Preemptions < 5_000 {
		t.Fatalf("%d preemptions in %d steps: the walk barely switched, the test shows nothing", b.Preemptions, b.Steps)
	}
	if len(b.Schedule) > 1000 {
		t.Errorf("a schedule of %d bytes for a walk", len(b.Schedule))
	}
	sched, err := DecodeSchedule(b.Schedule)
	if err != nil || !sched.Walk || len(sched.Switches)+len(sched.Picks) != 0 || sched.WalkDraws < b.Steps/2 {
		t.Fatalf("decoded %+v, err %v: want a walk's seed and draws, no switches", sched, err)
	}
	for _, c := range []struct {
		name   string
		tamper func(*Schedule)
		want   string
	}{
		{"another seed", func(s *Schedule) { s.WalkSeed++ }, "left the recorded path at step"},
		{"other draws", func(s *Schedule) { s.WalkDraws++ }, "the walk drew"},
	} {
		s := sched
		c.tamper(&s)
		r := replayBug(t, "TestProgWalkLong", &BugReport{Schedule: s.Encode(), Execution: b.Execution})
		if !strings.Contains(r.Diverged, c.want) {
			t.Errorf("%s: diverged %q, want %q", c.name, r.Diverged, c.want)
		}
	}
}

// TestScheduleFormat4StillDecodes: a token of the format before walks'
// seeds (4: the same fields, no walk) decodes to the same schedule.
func TestScheduleFormat4StillDecodes(t *testing.T) {
	s := Schedule{Steps: 9, FP: 7, Draws: 3, Switches: []SwitchEvent{{Step: 2, To: 1, FP: 5, Site: sGo}}, Picks: []PickEvent{{4, 1}}}
	raw, _ := base64.RawURLEncoding.DecodeString(s.Encode())
	if raw[0] != scheduleFormat || raw[len(raw)-1] != 0 {
		t.Fatalf("format %d starts with its version and ends with no walk: %v", scheduleFormat, raw)
	}
	raw[0] = 4
	old := base64.RawURLEncoding.EncodeToString(raw[:len(raw)-1])
	got, err := DecodeSchedule(old)
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("format 4 decoded to %+v, err %v; want %+v", got, err, s)
	}
	w := Schedule{Steps: 9, FP: 7, Walk: true, WalkSeed: 1 << 63, WalkDraws: 12}
	if got, err := DecodeSchedule(w.Encode()); err != nil || !reflect.DeepEqual(got, w) {
		t.Fatalf("walk decoded to %+v, err %v; want %+v", got, err, w)
	}
}
