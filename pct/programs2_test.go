package pct

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// More model programs: each exercises one primitive's model.

func TestProgUnlockUnlocked(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		Unlock(sUnlock, &mu)
	})
}

func TestProgNegativeWG(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		WGDone(sWG, &wg)
	})
}

// TestProgOnceRecursive deadlocks: f calls Do on the same Once.
func TestProgOnceRecursive(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var once sync.Once
		OnceDo(sOther, &once, func() { OnceDo(sOther, &once, func() {}) })
	})
}

// TestProgLostWakeup checks the condition without the lock and then waits:
// a Signal sent in between is lost and the waiter blocks for ever.
func TestProgLostWakeup(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		ready := false
		done := make(chan bool)
		Go(sGo, func() {
			if !Load(sR, &ready) {
				Lock(sLock, &mu)
				CondWait(sOther, c)
				Unlock(sUnlock, &mu)
			}
			Send(sSend, done, true)
		})
		Lock(sLock, &mu)
		Store(sW, &ready, true)
		Unlock(sUnlock, &mu)
		CondSignal(sOther, c)
		Recv(sRecv, done)
	})
}

// TestProgSelectDefault never blocks: the default case is taken when the
// channel is empty, the receive when a value is there.
func TestProgSelectDefault(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ch := make(chan int, 1)
		got := 0
		Go(sGo, func() { Send(sSend, ch, 7) })
		for got == 0 {
			switch Select(sSelect, 1, true, func(i int) bool {
				select {
				case got = <-ch:
					return true
				default:
					return false
				}
			}, nil, nil) {
			case 0:
			case -1:
				Sleep(sSleep, time.Millisecond)
			}
		}
		if got != 7 {
			TError(sFail, t, "Errorf", "got %d", got)
		}
	})
}

// TestProgContextTimeout: the worker's result races with the context's
// deadline; the test reports the timeout path as a failure so that the
// search must make the timer fire while the worker can still run.
func TestProgContextTimeout(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ctx, cancel := WithTimeout(sOther, context.Background(), time.Second)
		defer cancel()
		res := make(chan int, 1)
		Go(sGo, func() {
			Store(sW, &counter, 1)
			Send(sSend, res, 1)
		})
		done := ctx.Done()
		switch Select(sSelect, 2, false, func(i int) bool {
			if i == 0 {
				select {
				case <-res:
					return true
				default:
					return false
				}
			}
			select {
			case <-done:
				return true
			default:
				return false
			}
		}, func() int {
			select {
			case <-res:
				return 0
			case <-done:
				return 1
			}
		}, nil) {
		case 1:
			TError(sFail, t, "Error", "timed out")
		}
	})
}

// TestProgAfterFunc: the callback runs as a managed goroutine.
func TestProgAfterFunc(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		fired := make(chan bool)
		AfterFunc(sOther, time.Millisecond, func() { Send(sSend, fired, true) })
		Recv(sRecv, fired)
	})
}

// TestProgTicker counts three ticks.
func TestProgTicker(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		tk := NewTicker(sOther, time.Millisecond)
		defer tk.Stop()
		for i := 0; i < 3; i++ {
			Recv(sRecv, tk.C)
		}
	})
}

// TestProgRWWriterWaits: a writer is preferred over new readers, but two
// readers that do not re-lock never deadlock.
func TestProgRWReaders(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var rw sync.RWMutex
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				RLock(sLock, &rw)
				Load(sR, &counter)
				RUnlock(sUnlock, &rw)
			})
		}
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			WLock(sLock, &rw)
			Store(sW, &counter, 1)
			WUnlock(sUnlock, &rw)
		})
		WGWait(sWG, &wg)
	})
}

func TestProgSubtest(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		t.Run("sub", func(t *testing.T) {})
	})
}

// TestProgStuck blocks the token holder in an operation gopct does not see
// (an uninstrumented receive) while the sender waits for its turn.
func TestProgStuck(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ch := make(chan int)
		Go(sGo, func() { ch <- 1 })
		<-ch
	})
}

// TestProgNativeDeadlock blocks the test in an operation gopct does not
// see that nobody completes: the sender sends on another channel.
func TestProgNativeDeadlock(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ch, other := make(chan int), make(chan int, 1)
		Go(sGo, func() { other <- 1 })
		<-ch
	})
}

type account struct{ balance, ops int }

// TestProgProfile touches a global from two goroutines and a heap object
// from one.
func TestProgProfile(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		a := Alloc(sAlloc, &account{})
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 2)
		for i := 0; i < 2; i++ {
			Go(sGo, func() {
				Store(sW, &counter, Load(sR, &counter)+1)
				WGDone(sWG, &wg)
			})
		}
		WGWait(sWG, &wg)
		Store(sW, &a.ops, 1)
	})
}

// TestProgCancel: the context's cancel function (code gopct does not
// instrument) wakes a goroutine blocked on ctx.Done().
func TestProgCancel(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			Recv(sRecv, ctx.Done())
		})
		Store(sW, &counter, 1)
		cancel()
		WGWait(sWG, &wg)
	})
}

// TestProgMapIterWrite: one goroutine ranges over a map while another
// writes it: the runtime's "concurrent map iteration and map write".
func TestProgMapIterWrite(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		m := map[string]int{"a": 1, "b": 2, "c": 3}
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			MapStore(sMap, m, "d", 4)
		})
		sum := 0
		for w, _, v := MapWalk(sR, m); w.Next(nil, &v); {
			sum += v
		}
		WGWait(sWG, &wg)
	})
}

// TestProgOutsideLock: a goroutine gopct does not manage (started with a
// plain go statement) holds the mutex for a while; the test's Lock must wait
// for it, not report a deadlock.
func TestProgOutsideLock(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		held := make(chan bool)
		go func() {
			mu.Lock()
			held <- true
			time.Sleep(time.Second)
			mu.Unlock()
		}()
		Recv(sRecv, held)
		Lock(sLock, &mu)
		Unlock(sUnlock, &mu)
	})
}

// TestProgYieldsThenFail: two goroutines take turns through
// runtime.Gosched a thousand times each, then the test fails.
func TestProgYieldsThenFail(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var n atomic.Int32
		Go(sGo, func() {
			for range 1000 {
				Gosched(sOther)
				n.Add(1)
			}
		})
		for !Seq(Point(sOther), n.Load() == 1000) {
			Gosched(sOther)
		}
		TError(sFail, t, "Fatal", "done")
	})
}

// TestYieldsAreNoPreemptions: a switch at runtime.Gosched is the
// goroutine's request, not a preemption of the schedule (as the exhaustive
// search counts it): PCT's first execution has no change point, so c = 0.
// Counted, the report said c = 2,000 (GoKer's cockroach1462: 131,074).
func TestYieldsAreNoPreemptions(t *testing.T) {
	b := mustFind(t, "TestProgYieldsThenFail", "pct", 1, 1, "fail")
	if b.Preemptions != 0 {
		t.Errorf("c = %d, want 0: the yields' switches were counted", b.Preemptions)
	}
}

// gcSeen is the collector's setting each execution of TestProgGCSeen saw,
// in this process.
var gcSeen []int

// TestProgGCSeen fails in the fourth execution of its process, naming the
// collector's setting every execution so far saw.
func TestProgGCSeen(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		gcSeen = append(gcSeen, p)
		if len(gcSeen) == 4 {
			TError(sFail, t, "Fatal", fmt.Sprint(gcSeen))
		}
	})
}

// TestRebuildWithoutCollection: a replay runs the hunt worker's earlier
// executions again with the collector off, so that no freed address is
// reused and taken for a race (a divergence of GoKer's etcd7492 with all its
// copies); the recorded execution itself runs as in the hunt.
func TestRebuildWithoutCollection(t *testing.T) {
	b, _ := hunt(t, "TestProgGCSeen", "pct", 1, 4)
	if b == nil || b.Execution != 3 {
		t.Fatalf("got %+v, want a failure in execution #3", b)
	}
	pctSpec := testSpec("pct")
	recs := campaign(t, "TestProgGCSeen", Config{Spec: testSpec("replay"), Replay: b.Schedule, First: 3, Iters: 4,
		Prior: &pctSpec, PriorStride: 1})
	done := recs[len(recs)-1]
	hunted := strings.Fields(strings.Trim(b.Message, "[]"))
	want := fmt.Sprintf("[-1 -1 -1 %s]", hunted[3])
	if done.Outcome == nil || done.Outcome.Message != want {
		t.Fatalf("replay outcome %+v, want %q (the hunt saw %s)", done.Outcome, want, b.Message)
	}
}

// TestProgSpinYield spins on a flag with runtime.Gosched until another
// goroutine sets it: without honouring the yield, PCT would let the spinner
// run to the step limit.
func TestProgSpinYield(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var flag atomic.Bool
		Go(sGo, func() { Point(sOther); flag.Store(true) })
		for !Seq(Point(sOther), flag.Load()) {
			Gosched(sOther)
		}
	})
}
