package pct

import (
	"fmt"
	"strings"
	"testing"
)

// A race's report shows both accesses' stacks: the current one's, captured
// when the race is found, and the earlier one's, captured by running the
// execution again (racestack.go). In TestProgRaceSpawnBad the child writes
// raceX and the test reads it, unordered.
func TestRaceReportShowsBothStacks(t *testing.T) {
	recs := campaign(t, "TestProgRaceSpawnBad", Config{Spec: testSpec("pct"), Seed: 1, Iters: 10, Race: true})
	var bug *BugReport
	for _, r := range recs {
		if r.Type == RecBug {
			bug = r.Bug
		}
	}
	if bug == nil || bug.Kind != FailRace {
		t.Fatalf("no race: %+v", bug)
	}
	if want := fmt.Sprintf("race %d %d", min(sR, sW), max(sR, sW)); bug.Key != want {
		t.Errorf("key %q, want %q", bug.Key, want)
	}
	cur, earlier, ok := strings.Cut(bug.Stack, "\n\nprevious ")
	if !ok {
		t.Fatalf("no earlier access's stack in:\n%s", bug.Stack)
	}
	// Seed 1 runs the child first: the read completes the race; other
	// seeds may order them the other way. Either way each stack is its
	// access's.
	read, write := cur, earlier
	if strings.HasPrefix(cur, "write at ") {
		read, write = earlier, cur
	}
	if !strings.HasPrefix(read, "read at ") || !strings.Contains(read, "pct.TestProgRaceSpawnBad.func1(") {
		t.Errorf("the read's stack is not the test's:\n%s", read)
	}
	if !strings.HasPrefix(write, "write at ") || !strings.Contains(write, "pct.TestProgRaceSpawnBad.func1.1(") {
		t.Errorf("the write's stack is not the child's:\n%s", write)
	}
}
