package pct

import (
	"strings"
	"testing"
)

func TestLostUpdateFound(t *testing.T) {
	for _, s := range []string{"pct", "random"} {
		b := mustFind(t, "TestProgLostUpdate", s, 1, 200, "fail")
		if b.Message != "counter = 1, want 2" {
			t.Errorf("%s: message %q", s, b.Message)
		}
	}
}

func TestLockedCounterPasses(t *testing.T) {
	mustPass(t, "TestProgLockedCounter", "pct", 300)
	mustPass(t, "TestProgLockedCounter", "random", 300)
}

func TestABBADeadlock(t *testing.T) { mustFind(t, "TestProgABBA", "pct", 1, 300, "deadlock") }
func TestRWRDeadlock(t *testing.T)  { mustFind(t, "TestProgRWR", "pct", 1, 300, "deadlock") }
func TestDoubleLock(t *testing.T)   { mustFind(t, "TestProgDoubleLock", "pct", 1, 10, "deadlock") }

// The goroutine table of a leak shows a sleeper as sleeping, where it
// sleeps, as the leak found it: by the time the table is made, the sleep's
// timer has fired and the goroutine has cleared what it waited for.
func TestLeakTableShowsSleeper(t *testing.T) {
	b := mustFind(t, "TestProgSleeperLeak", "pct", 1, 10, "leak")
	want := map[string][2]string{
		"g1": {"sleeping", "sleeping at " + sitePos(sSleep)},
		"g2": {"blocked", "blocked at send"},
	}
	for _, g := range b.Goroutines {
		if w, ok := want[g.ID]; ok {
			if g.State != w[0] || !strings.HasPrefix(g.Waiting, w[1]) {
				t.Errorf("%s: state %q waiting %q, want %q %q...", g.ID, g.State, g.Waiting, w[0], w[1])
			}
			delete(want, g.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("goroutines missing from the table: %v (table %+v)", want, b.Goroutines)
	}
}

func TestTimeoutLeak(t *testing.T)    { mustFind(t, "TestProgTimeoutLeak", "pct", 1, 300, "leak") }
func TestSendOnClosed(t *testing.T)   { mustFind(t, "TestProgSendClosed", "pct", 1, 300, "panic") }
func TestFatalGoroutine(t *testing.T) { mustFind(t, "TestProgFatalInGoroutine", "pct", 1, 300, "fail") }
func TestMapWrites(t *testing.T)      { mustFind(t, "TestProgMapWrites", "pct", 1, 300, "fatal") }
func TestSleepersPass(t *testing.T)   { mustPass(t, "TestProgSleepers", "random", 200) }
func TestOnceCondPass(t *testing.T)   { mustPass(t, "TestProgOnceCond", "random", 300) }

func TestUnlockOfUnlocked(t *testing.T) {
	b := mustFind(t, "TestProgUnlockUnlocked", "pct", 1, 5, "fatal")
	if b.Message != "sync: unlock of unlocked mutex" {
		t.Errorf("message %q", b.Message)
	}
}

func TestNegativeWaitGroup(t *testing.T) {
	b := mustFind(t, "TestProgNegativeWG", "pct", 1, 5, "panic")
	if b.Message != "sync: negative WaitGroup counter" {
		t.Errorf("message %q", b.Message)
	}
}

func TestOnceRecursiveDeadlock(t *testing.T) {
	mustFind(t, "TestProgOnceRecursive", "pct", 1, 5, "deadlock")
}
func TestLostWakeup(t *testing.T)          { mustFind(t, "TestProgLostWakeup", "pct", 1, 300, "deadlock") }
func TestSelectDefaultPasses(t *testing.T) { mustPass(t, "TestProgSelectDefault", "random", 300) }
func TestContextTimeoutPath(t *testing.T) {
	mustFind(t, "TestProgContextTimeout", "pct", 1, 300, "fail")
}
func TestAfterFuncPasses(t *testing.T) { mustPass(t, "TestProgAfterFunc", "random", 300) }
func TestTickerPasses(t *testing.T)    { mustPass(t, "TestProgTicker", "random", 300) }
func TestRWReadersPass(t *testing.T)   { mustPass(t, "TestProgRWReaders", "random", 500) }

// TestExactOutcome pins the execution at which PCT finds the lost update
// for a fixed seed: the scheduler is deterministic, so a change here is a
// change of the schedules explored.
func TestExactOutcome(t *testing.T) {
	b, _ := hunt(t, "TestProgLostUpdate", "pct", 7, 200)
	b2, _ := hunt(t, "TestProgLostUpdate", "pct", 7, 200)
	if b == nil || b2 == nil || b.Execution != b2.Execution || b.Schedule != b2.Schedule {
		t.Fatalf("not deterministic: %+v vs %+v", b, b2)
	}
}

func TestSubtestIsAnEnvironmentError(t *testing.T) {
	recs := campaign(t, "TestProgSubtest", Config{Spec: testSpec("pct"), Seed: 1, Iters: 10})
	for _, r := range recs {
		if r.Type == "bug" {
			t.Fatalf("reported as a bug: %+v", r.Bug)
		}
	}
	if recs[len(recs)-1].Type != "error" || !strings.Contains(recs[len(recs)-1].Message, "t.Run") {
		t.Fatalf("records %+v", recs)
	}
}

// TestNativeBlockIsHandedOff: the test blocks inside code gopct does not
// see, waiting for a goroutine that waits for its turn; the guard hands
// the token on (native.go), and every execution passes.
func TestNativeBlockIsHandedOff(t *testing.T) {
	recs := campaign(t, "TestProgStuck", Config{Spec: testSpec("pct"), Seed: 1, Iters: 10})
	last := recs[len(recs)-1]
	if last.Type != "done" || last.Finished != 10 || last.Abandoned != 0 {
		t.Fatalf("records %+v", recs)
	}
}

// TestNativeDeadlockIsReported: nobody completes the operation the test
// blocked in: a deadlock, which names where the test was.
func TestNativeDeadlockIsReported(t *testing.T) {
	b, _ := hunt(t, "TestProgNativeDeadlock", "pct", 1, 10)
	if b == nil || b.Kind != FailDeadlock || b.Execution != 0 ||
		!strings.Contains(b.Message, "g0 blocked inside code gopct does not instrument after") {
		t.Fatalf("bug %+v", b)
	}
}

func TestProfileObservesVariables(t *testing.T) {
	recs := campaign(t, "TestProgProfile", Config{Spec: testSpec("random"), Seed: 1, Iters: 10, Profile: true})
	got := map[string]Observation{}
	for _, o := range recs[len(recs)-1].Profile {
		got[o.Site+"|"+o.Var] = o
	}
	if o := got["|example.com/prog.counter"]; o.Goroutines != 2 || o.Accesses != 4 {
		t.Errorf("counter totals %+v, want 2 goroutines, 4 accesses per execution", o)
	}
	if o := got["prog.go:2:1|prog.go:14:5"]; o.Goroutines != 1 || o.Access != "write" {
		t.Errorf("heap object at the write site: %+v (all: %v)", o, got)
	}
	if _, ok := got["prog.go:1:1|example.com/prog.counter"]; !ok {
		t.Errorf("read site of counter not observed: %v", got)
	}
}

func TestCancelWakesWaiter(t *testing.T) {
	mustPass(t, "TestProgCancel", "random", 300)
	mustPass(t, "TestProgCancel", "pct", 300)
}

func TestMapIterationAndWrite(t *testing.T) {
	b := mustFind(t, "TestProgMapIterWrite", "pct", 1, 300, "fatal")
	if b.Message != "concurrent map read and map write" {
		t.Errorf("message %q", b.Message)
	}
}

func TestSortKeysDeterministic(t *testing.T) {
	type k struct {
		a int
		s string
	}
	keys := []k{{2, "x"}, {1, "z"}, {1, "a"}}
	sortKeys(keys)
	if keys[0] != (k{1, "a"}) || keys[1] != (k{1, "z"}) || keys[2] != (k{2, "x"}) {
		t.Fatalf("order %v", keys)
	}
	anys := []any{"b", 2, "a", 1}
	sortKeys(anys)
	if anys[0] != 1 || anys[1] != 2 || anys[2] != "a" || anys[3] != "b" {
		t.Fatalf("order %v", anys)
	}
}

func TestLockHeldOutsideIsNotADeadlock(t *testing.T) {
	mustPass(t, "TestProgOutsideLock", "pct", 50)
}

func TestSpinWithYieldFinishes(t *testing.T) {
	for _, s := range []string{"pct", "random"} {
		recs := campaign(t, "TestProgSpinYield", Config{Spec: testSpec(s), Seed: 1, Iters: 200, MaxSteps: 20000})
		done := recs[len(recs)-1]
		if done.Abandoned != 0 || done.Executions != 200 {
			t.Errorf("%s: %d executions, %d abandoned at the step limit", s, done.Executions, done.Abandoned)
		}
	}
}
