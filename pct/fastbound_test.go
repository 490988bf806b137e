package pct

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The fast bound (stay.go) must end wherever a condition it stands for
// turns false. These programs make tracked reads and map operations right
// after each place that changes one (a timer, a ticker, a goroutine made
// or blocked or woken, a real blocking operation, a yield, an eager
// callback, a contended mutex), and the package's tests run them with
// verifyFast on (verifyfast_test.go): a missing unfast is a panic in the
// worker, which the campaign reports as a bug.

// tracked makes n reads of the tracked variable.
func tracked(n int) {
	for range n {
		sink += Load(sR, &counter)
	}
}

// trackedMap makes n writes and n reads of a map (memFast's callers
// other than access).
func trackedMap(m map[int]int, n int) {
	for i := range n {
		MapStore(sMap, m, i, i)
		sink += MapLoad(sMap, m, i)
	}
}

func TestProgFastTimers(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		m := map[int]int{}
		tracked(40)
		trackedMap(m, 20)
		tm := NewTimer(sSleep, time.Hour)
		tracked(40)
		trackedMap(m, 20)
		tk := NewTicker(sSleep, time.Hour)
		trackedMap(m, 20)
		tracked(40)
		tm.Stop()
		tk.Stop()
	})
}

func TestProgFastGoroutines(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		ch := make(chan int)
		stop := ContextAfterFunc(sOther, context.Background(), func() {})
		tracked(20)
		WGAdd(sWG, &wg, 2)
		Go(sGo, func() {
			tracked(20)
			Lock(sLock, &mu)
			tracked(20)
			Unlock(sUnlock, &mu)
			Send(sSend, ch, 1)
			tracked(20)
			Gosched(sOther)
			tracked(20)
			WGDone(sWG, &wg)
		})
		tracked(20)
		Go(sGo, func() {
			tracked(20)
			Lock(sLock, &mu)
			tracked(20)
			Unlock(sUnlock, &mu)
			tracked(20)
			Recv(sRecv, ch)
			tracked(20)
			WGDone(sWG, &wg)
		})
		tracked(20)
		WGWait(sWG, &wg)
		tracked(20)
		stop()
	})
}

// TestFastBoundHolds runs the programs above under PCT, PCTVB tracking
// the read variable and the random walk: every execution finishes without
// a report.
func TestFastBoundHolds(t *testing.T) {
	specs := map[string]Config{
		"pct":    {Spec: testSpec("pct")},
		"pctvb":  {Spec: Spec{Name: "pctvb", D: 3}, VarSites: [][]int{{sR}}},
		"random": {Spec: testSpec("random")},
	}
	for _, prog := range []string{"TestProgFastTimers", "TestProgFastGoroutines"} {
		for name, cfg := range specs {
			cfg.Seed, cfg.Iters = 1, 30
			recs := campaign(t, prog, cfg)
			for _, r := range recs {
				if r.Bug != nil {
					t.Errorf("%s/%s: execution %d: %s: %s", prog, name, r.Bug.Execution, r.Bug.Kind, r.Bug.Message)
				}
			}
			if done := recs[len(recs)-1]; done.Type != "done" || done.Finished != 30 {
				t.Errorf("%s/%s: %s, %d of 30 executions finished", prog, name, done.Type, done.Finished)
			}
		}
	}
}
