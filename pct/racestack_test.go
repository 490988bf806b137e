package pct

import (
	"fmt"
	"runtime"
	"runtime/debug"
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

// raceFirstRun races on raceX in the first execution of the process only
// (the rerun that confirms a race does not race), with a garbage
// collection during it or with the collector off.
var raceFirstRan bool

func raceFirstRun(t *testing.T, collect bool) {
	if !collect {
		debug.SetGCPercent(-1) // before the first execution: no collection in it
	}
	raceProg(t, func(*testing.T) {
		racy := !raceFirstRan
		raceFirstRan = true
		done := make(chan bool)
		Go(sGo, func() { Store(sW, &raceX, 1); Send(sSend, done, true) })
		if collect {
			runtime.GC()
		}
		if racy {
			_ = Load(sR, &raceX)
		}
		Recv(sRecv, done)
		_ = Load(sR, &raceX)
	})
}

func TestProgRaceFirstRunCollected(t *testing.T) { raceFirstRun(t, true) }
func TestProgRaceFirstRunNoGC(t *testing.T)      { raceFirstRun(t, false) }

// A race found in an execution during which a garbage collection completed
// may be an address reused by a new object (racestack.go): it is reported
// only when the rerun, without collection, finds it again. Here the rerun
// does not race, so the race is dropped; without the collection the same
// race is reported (with one stack: the rerun does not explain it).
func TestRaceAfterCollectionNeedsConfirmation(t *testing.T) {
	for _, c := range []struct {
		prog     string
		reported bool
	}{{"TestProgRaceFirstRunCollected", false}, {"TestProgRaceFirstRunNoGC", true}} {
		recs := campaign(t, c.prog, Config{Spec: testSpec("pct"), Seed: 1, Iters: 1, Race: true})
		var bug *BugReport
		for _, r := range recs {
			if r.Type == RecBug {
				bug = r.Bug
			}
		}
		switch {
		case c.reported && (bug == nil || bug.Kind != FailRace):
			t.Errorf("%s: %+v, want a race", c.prog, bug)
		case c.reported && strings.Contains(bug.Stack, "previous "):
			t.Errorf("%s: an earlier stack from a rerun that did not race:\n%s", c.prog, bug.Stack)
		case !c.reported && bug != nil:
			t.Errorf("%s: unconfirmed %s reported: %s", c.prog, bug.Kind, bug.Message)
		}
		if last := recs[len(recs)-1]; last.Type != RecDone || last.Executions != 1 {
			t.Errorf("%s: last record %+v, want done after 1 execution", c.prog, last)
		}
	}
}
