package pct

import (
	"sync"
	"testing"
)

// Batches inside livelock windows: the conditions of batches outside them
// hold there too (review of the synchronisation batches, stop 30).

// TestProgShortLimitWindow: two goroutines, 6,000 rounds each, of a Lock,
// a load and a store of counter, an Unlock, then the test fails (about
// 48,000 steps). Under -max-steps 4096 the livelock window opens at step
// 4096, inside the trail (16,384 steps), and progresses at once.
func TestProgShortLimitWindow(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for i := 0; i < 6_000; i++ {
					Lock(sLock, &mu)
					c := Load(sR, &counter)
					Store(sW, &counter, c+1)
					Unlock(sUnlock, &mu)
				}
			})
		}
		WGWait(sWGWait, &wg)
		TError(sFail, t, "Fatal", "done")
	})
}

// TestShortLimitWindowReplays: a window's batches open only past the trail,
// whose steps the recording keeps one by one; the failure found after a
// window that opened inside it replays (it diverged at step 4,101).
func TestShortLimitWindowReplays(t *testing.T) {
	checkFailureReplays(t, "TestProgShortLimitWindow", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 1, MaxSteps: 4096})
}

// TestProgObjectGateWindow: each round locks mu, stores to counter (a
// tracked variable: the livelock window progresses) and makes eight
// accesses to an object the object gate leaves out (no scheduling point),
// then unlocks; 5,000 rounds in each of two goroutines, then the test
// fails. Under -max-steps 20,000 a window opens past the trail.
func TestProgObjectGateWindow(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				p := Alloc(sAlloc, new(int))
				for i := 0; i < 5_000; i++ {
					Lock(sLock, &mu)
					Store(sW, &counter, counter+1)
					for j := 0; j < 4; j++ {
						Store(sW2, p, Load(sR2, p)+1)
					}
					Unlock(sUnlock, &mu)
				}
			})
		}
		WGWait(sWGWait, &wg)
		TError(sFail, t, "Fatal", "done")
	})
}

// TestObjectGateWindowReplays: a window's batches do not open under the
// object gate, which makes no step for an access to an object it leaves
// out; the failure replays with the same gate (the recording took 52,390
// steps, the replay 30,007).
func TestObjectGateWindowReplays(t *testing.T) {
	checkFailureReplays(t, "TestProgObjectGateWindow", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 1,
		MaxSteps: 20_000, Loop: 2, Objects: []string{"nothing#0@0"}})
}

// checkFailureReplays hunts prog under cfg and replays its failure under
// cfg's step limit, loop bound and object gate.
func checkFailureReplays(t *testing.T, prog string, cfg Config) {
	t.Helper()
	b, done := huntWith(t, prog, cfg)
	if b == nil {
		t.Fatalf("no failure: %+v", done)
	}
	t.Logf("failed at step %d, %d tallied", b.Steps, done.Tallied)
	if r := replayUnder(t, prog, cfg, b); r.Diverged != "" || r.Outcome == nil {
		t.Fatalf("replay diverged (%s) or did not fail", r.Diverged)
	}
}

// TestTallyGlobalsUnderGoRace: under Go's race detector (-gorace, tallyOn
// false) a goroutine gopct does not manage that runs instrumented code (a
// janitor started by init, an httptest handler) must not read the batch
// globals that the runner writes at every execution's start
// (newExecution, resetSyncTally), with nothing ordering the two: Go's
// detector would report a race in gopct's variables as the user's.
// go test -race -run TestTallyGlobalsUnderGoRace ./pct
func TestTallyGlobalsUnderGoRace(t *testing.T) {
	if tallyOn {
		t.Skip("run with -race")
	}
	var mu sync.Mutex
	done := make(chan struct{})
	go func() { // not managed, outside any execution
		for i := 0; i < 100; i++ {
			Lock(sLock, &mu)
			Unlock(sUnlock, &mu)
		}
		close(done)
	}()
	newExecution(0, nil, &stepLimits{}) // the next execution starts
	<-done
}
