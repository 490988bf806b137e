package pct

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestProgLongSyncLostUpdate: two goroutines, 60,000 rounds each, of the
// synchronisation a sharded set makes (a Lock and an Unlock, two nested
// mutexes every 50th round, released out of order every 500th, an atomic
// add, an atomic load), around a load and a store of counter that lose
// updates when a preemption falls between them. Past the trail most of its
// steps run in tally batches, with or without the memory sites active.
func TestProgLongSyncLostUpdate(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var mu, inner sync.Mutex
		var adds int64
		var flag atomic.Bool
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for i := 0; i < 60_000; i++ {
					Lock(sLock, &mu)
					if i%50 == 0 {
						Lock(sLock, &inner)
						if i%500 == 0 {
							Unlock(sUnlock, &mu)
							Unlock(sUnlock, &inner)
							continue
						}
						Unlock(sUnlock, &inner)
					}
					Unlock(sUnlock, &mu)
					c := Load(sR, &counter)
					atomic.AddInt64(AtomicAt(sAtomic, &adds), 1)
					Point(sLoad)
					_ = flag.Load()
					Store(sW, &counter, c+1)
				}
			})
		}
		WGWait(sWGWait, &wg)
		if counter != 120_000-2*120 {
			TError(sFail, t, "Fatal", "lost updates")
		}
	})
}

// TestSyncTallyKeepsTheSchedule: batches that take Locks, Unlocks and
// atomic operations count the steps and decisions as the runtime's path
// does. The bug's preemptions fall at the steps pinned from gopct before
// synchronisation operations entered batches (30cdaa5), with every memory
// site active, none (only synchronisation operations are points: v = 0),
// and PCTVB tracking counter (which counts its accesses, not the
// synchronisation steps in between); each replays, entering the runtime at
// every step.
func TestSyncTallyKeepsTheSchedule(t *testing.T) {
	checkBatchedSchedules(t, "TestProgLongSyncLostUpdate", "lost updates", []batchedCase{
		{"pct", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 20}, 3, []int{326261, 448269}},
		{"pct v=0", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 20, Sites: []int{}}, 1, []int{3, 171640, 171642, 214107}},
		{"pctvb", Config{Spec: Spec{Name: "pctvb", D: 3}, Seed: 1, Iters: 20, VarSites: [][]int{{sR, sW}},
			Sites: []int{sR, sW}}, 1, []int{5, 254325}},
	})
}

// TestProgLongMapWrites: two goroutines, 40,000 rounds each, write a map
// of their own under a mutex and, every 32nd round and unprotected, a
// map they share: a preemption inside a write of the shared map, followed
// by the other goroutine's write of it, is Go's fatal "concurrent map
// writes". Past the trail, batches take the writes of the private maps,
// and of the shared one while nobody is inside a write of it; the other
// goroutine's batch sends its write of the shared map to the runtime.
func TestProgLongMapWrites(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		shared := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				own := map[int]int{}
				for i := 0; i < 40_000; i++ {
					Lock(sLock, &mu)
					MapStorePlain(sMap, own, i%64, i) // as the instrumenter writes a store of an int key
					Unlock(sUnlock, &mu)
					if i%32 == 0 {
						MapStorePlain(sMap, shared, i%64, i)
					}
				}
			})
		}
		WGWait(sWGWait, &wg)
	})
}

// TestMapTallyKeepsTheSchedule: batches that take map operations find the
// concurrent write past the trail at the preemption steps pinned from
// gopct before they did (30cdaa5), with every site active and with PCTVB
// tracking the maps, and the failure replays. In both, the goroutine that
// runs after the last preemption makes a batch's worth of steps (the bug
// is 28 and 20 steps after it) before its write of the shared map, which
// its batch sends to the runtime.
func TestMapTallyKeepsTheSchedule(t *testing.T) {
	checkBatchedSchedules(t, "TestProgLongMapWrites", "concurrent map writes", []batchedCase{
		{"pct", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 6, Iters: 50}, 4, []int{3, 119057, 119059, 119063, 226708}},
		{"pctvb", Config{Spec: Spec{Name: "pctvb", D: 3}, Seed: 10, Iters: 50, VarSites: [][]int{{sMap}},
			Sites: []int{sMap}}, 20, []int{5, 56017, 56021, 79556}},
	})
}

// TestUnhashedKinds: the mask foldStep reads names exactly the memory
// kinds and the synchronisation kinds batches take.
func TestUnhashedKinds(t *testing.T) {
	for k := SiteKind(0); k < 64; k++ {
		if got, want := unhashedKinds>>k&1 != 0, isMemory(k) || syncBatchable(k); got != want {
			t.Errorf("kind %d: unhashed %v, want %v", k, got, want)
		}
	}
}

// TestProgLongLockedThenFail: two goroutines, 230,000 rounds each, of a
// Lock, a map write, an Unlock and an atomic add (2.3 million steps: two
// livelock windows, at 2^20 and 2^21 steps), then the test fails.
func TestProgLongLockedThenFail(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		var adds int64
		m := map[int]int{}
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for i := 0; i < 230_000; i++ {
					Lock(sLock, &mu)
					MapStorePlain(sMap, m, i%64, i)
					Unlock(sUnlock, &mu)
					atomic.AddInt64(AtomicAt(sAtomic, &adds), 1)
				}
			})
		}
		WGWait(sWGWait, &wg)
		TError(sFail, t, "Fatal", "done")
	})
}

// TestSyncTallyInWindows: once a livelock window has seen progress, the
// rest of each turn runs in batches that take Locks, Unlocks, map writes
// and atomic operations too, and the execution takes the steps it took
// before any batch took them (pinned from 30cdaa5); the failure replays.
func TestSyncTallyInWindows(t *testing.T) {
	recs := campaign(t, "TestProgLongLockedThenFail", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 1})
	b, done := recs[0].Bug, recs[len(recs)-1]
	if b == nil {
		t.Fatalf("no bug: %+v", done)
	}
	t.Logf("failed at step %d, %d tallied", b.Steps, done.Tallied)
	if b.Steps != 2_300_007 {
		t.Errorf("failed at step %d, want 2,300,007", b.Steps)
	}
	if outside := int64(b.Steps - maxTrailSteps - 2*liveWindow); tallyOn && done.Tallied <= outside {
		t.Errorf("%d steps tallied, no more than the %d outside the windows and the trail", done.Tallied, outside)
	}
	if r := replayBug(t, "TestProgLongLockedThenFail", b); r.Diverged != "" || r.Outcome == nil {
		t.Fatalf("replay diverged (%s) or did not fail", r.Diverged)
	}
}

// TestProgForeignLockInBatch: a goroutine gopct does not manage (a plain go
// statement) takes the mutex through the instrumented Lock while the
// holder's batch is open (the holder yields natively inside it), and keeps
// it for a second; the holder's Lock must wait for it as for a mutex held
// outside gopct's view, not for itself.
func TestProgForeignLockInBatch(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		var n int64
		for i := 0; i < 2*maxTrailSteps+100; i++ { // past the trail, off a 1024-step bound: a batch is open
			atomic.AddInt64(AtomicAt(sAtomic, &n), 1)
		}
		if tallyOn && !(tallySync && tally > 0) {
			TError(sFail, t, "Fatal", "no batch open")
		}
		taken := make(chan bool, 1)
		go func() {
			Lock(sLock, &mu)
			taken <- true
			time.Sleep(time.Second)
			Unlock(sUnlock, &mu)
		}()
		for len(taken) == 0 {
			runtime.Gosched() // natively: the batch stays open
		}
		Lock(sLock, &mu)
		Unlock(sUnlock, &mu)
	})
}

// TestForeignLockInBatch: the holder waits for the foreign goroutine's
// mutex as for one held outside gopct's view (pollOutside: its executions
// take 32,892 steps; 32,872 when the foreign Lock was counted in the
// holder's batch and the holder waited in the model for itself), and the
// executions end without a report.
func TestForeignLockInBatch(t *testing.T) {
	b, done := hunt(t, "TestProgForeignLockInBatch", "pct", 1, 3)
	if b != nil {
		t.Fatalf("a report: %s: %s", b.Kind, b.Message)
	}
	if done.Finished != 3 {
		t.Fatalf("%d of 3 executions finished: %+v", done.Finished, done)
	}
	if tallyOn && done.MaxSteps != 32_892 {
		t.Errorf("executions of %d steps, want 32,892: the foreign Lock was taken as the holder's", done.MaxSteps)
	}
}
