package pct

import (
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestProgTampered is a program whose code "changes" between the hunt and
// the replay: with GOPCT_TEST_TAMPER set, g1 reads y between its two writes
// of x. The test always fails.
func TestProgTampered(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		var y int
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			Store(sW, &counter, 1)
			if os.Getenv("GOPCT_TEST_TAMPER") != "" {
				_ = Load(sR2, &y)
			}
			Store(sW, &counter, 2)
		})
		WGWait(sWG, &wg)
		TError(sFail, t, "Errorf", "always")
	})
}

// TestTamperedReplayDivergesAtTheStep: the replay of changed code says at
// which step it left the recorded path, and where each run was there.
func TestTamperedReplayDivergesAtTheStep(t *testing.T) {
	t.Setenv("GOPCT_TEST_TAMPER", "")
	b := mustFind(t, "TestProgTampered", "pct", 1, 1, "fail")
	t.Setenv("GOPCT_TEST_TAMPER", "1")
	rec := replayBug(t, "TestProgTampered", b)
	want := "the run left the recorded path at step 5: the recording was at g1 prog.go:2:1 (write x), the replay is at g1 prog.go:16:1 (read y)"
	if rec.Diverged != want {
		t.Fatalf("diverged:\n %q\nwant\n %q", rec.Diverged, want)
	}
}

func TestScheduleTrailRoundTrip(t *testing.T) {
	s := Schedule{Steps: 3, FP: 7, Switches: []SwitchEvent{{Step: 2, To: 1, FP: 5, Site: sGo}},
		Trail: []trailStep{{0, sGo}, {timeID, -1}, {1, sW}}}
	got, err := DecodeSchedule(s.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Trail, s.Trail) || got.Sites[sW] != "prog.go:2:1 (write x)" || got.Sites[sGo] != "prog.go:3:1 (go)" {
		t.Fatalf("trail %v, sites %v", got.Trail, got.Sites)
	}
	// A trail too long for a token is cut to its first steps.
	long := make([]trailStep, maxTrailSteps)
	rng := NewRand(1)
	for i := range long {
		long[i] = trailStep{int32(rng.Intn(50)), int32(rng.Intn(len(siteTable)))}
	}
	s.Trail = long
	got, err = DecodeSchedule(s.Encode())
	if err != nil || len(got.Trail) == 0 || len(got.Trail) == len(long) || !reflect.DeepEqual(got.Trail, long[:len(got.Trail)]) {
		t.Fatalf("long trail: %d steps back, err %v", len(got.Trail), err)
	}
	if strings.Contains(s.Encode(), "=") {
		t.Fatal("padding in a token")
	}
}
