package pct

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// Benchmarks of the synchronisation operations under control (issue 11:
// a sharded hash set does 2M Lock/Unlock per execution). The program is
// bench/overhead's HashSet without the map: four goroutines, each taking
// and releasing one of sixteen mutexes in turn.

const (
	lockGoroutines = 4
	lockPairs      = 25_000 // per goroutine: 200,000 scheduling points per execution
	lockShards     = 16
)

// TestProgLocks is the lock-heavy program of BenchmarkLockUnlock and
// BenchmarkLockHandoff.
func TestProgLocks(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mus [lockShards]sync.Mutex
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, lockGoroutines)
		for w := range lockGoroutines {
			Go(sGo, func() {
				for i := range lockPairs {
					mu := &mus[(i*lockGoroutines+w)%lockShards]
					Lock(sLock, mu)
					Unlock(sUnlock, mu)
				}
				WGDone(sWG, &wg)
			})
		}
		WGWait(sWG, &wg)
	})
}

// lockOpCPU is the worker's CPU time per Lock or Unlock of TestProgLocks
// under strategy: the CPU of a campaign of 1+iters executions minus that
// of one execution (which removes process start-up), over the operations
// of iters executions; the fastest of rounds.
func lockOpCPU(b *testing.B, strategy string, iters, rounds int) float64 {
	best := 0.0
	for range rounds {
		one := cpuOf(b, "TestProgLocks", Config{Spec: testSpec(strategy), Seed: 1, Iters: 1})
		many := cpuOf(b, "TestProgLocks", Config{Spec: testSpec(strategy), Seed: 1, Iters: 1 + iters})
		ns := float64((many - one).Nanoseconds()) / float64(iters*lockGoroutines*lockPairs*2)
		if best == 0 || ns < best {
			best = ns
		}
	}
	return best
}

// nativeLockOp is the time per Lock or Unlock of the same loop run
// natively by one goroutine (uncontended, as under control only the token
// holder runs); the fastest of five rounds.
func nativeLockOp() float64 {
	var mus [lockShards]sync.Mutex
	best := 0.0
	for range 5 {
		start := time.Now()
		for i := range lockGoroutines * lockPairs {
			mu := &mus[i%lockShards]
			mu.Lock()
			mu.Unlock()
		}
		ns := float64(time.Since(start).Nanoseconds()) / float64(2*lockGoroutines*lockPairs)
		if best == 0 || ns < best {
			best = ns
		}
	}
	return best
}

// nativeHandoff is the CPU time of a goroutine handoff through channels
// on one P, as gopct's worker runs (GOMAXPROCS=1; with two a handoff may
// wake the other P); the fastest of five rounds.
func nativeHandoff() float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n = 100_000
	best := 0.0
	for range 5 {
		start := processCPU()
		chanHandoff(n)
		ns := float64((processCPU() - start).Nanoseconds()) / (2 * n)
		if best == 0 || ns < best {
			best = ns
		}
	}
	return best
}

// BenchmarkLockUnlock: CPU per Lock or Unlock under PCT, where nearly
// every operation is a scheduling point at which the holder continues
// (the fast path), as a ratio to the native operation.
func BenchmarkLockUnlock(b *testing.B) {
	ns := lockOpCPU(b, "pct", 5, 3)
	b.ReportMetric(ns, "cpu-ns/op-pct")
	b.ReportMetric(ns/nativeLockOp(), "x-native-op")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkLockHandoff: CPU per Lock or Unlock when each is a goroutine
// switch (strategy alternate: the next goroutine at every point) and
// under the random walk (a random choice among the four goroutines, three
// in four a switch), as ratios to a native handoff through channels.
func BenchmarkLockHandoff(b *testing.B) {
	native := nativeHandoff()
	sw := lockOpCPU(b, "alternate", 3, 3)
	b.ReportMetric(sw, "cpu-ns/switch")
	b.ReportMetric(sw/native, "x-chan-handoff")
	rnd := lockOpCPU(b, "random", 3, 3)
	b.ReportMetric(rnd, "cpu-ns/op-random")
	b.ReportMetric(rnd/native, "x-chan-handoff-random")
	b.ReportMetric(0, "ns/op")
}

const chanRounds = 50_000 // a send and a receive each: 100,000 points per execution

// TestProgChans is the channel program of BenchmarkChanOp: one goroutine
// sends to and receives from a buffered channel, so that every operation
// succeeds without blocking.
func TestProgChans(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ch := make(chan int, 1)
		for i := range chanRounds {
			Send(sSend, ch, i)
			sink += Recv(sRecv, ch)
		}
	})
}

// BenchmarkChanOp: CPU per channel operation that does not block, under
// PCT, as a ratio to the native operation (fastest of five rounds).
func BenchmarkChanOp(b *testing.B) {
	const iters = 20
	best := 0.0
	for range 3 {
		one := cpuOf(b, "TestProgChans", Config{Spec: testSpec("pct"), Seed: 1, Iters: 1})
		many := cpuOf(b, "TestProgChans", Config{Spec: testSpec("pct"), Seed: 1, Iters: 1 + iters})
		ns := float64((many - one).Nanoseconds()) / float64(iters*chanRounds*2)
		if best == 0 || ns < best {
			best = ns
		}
	}
	native := 0.0
	for range 5 {
		ch := make(chan int, 1)
		start := time.Now()
		for i := range chanRounds {
			ch <- i
			sink += <-ch
		}
		ns := float64(time.Since(start).Nanoseconds()) / float64(2*chanRounds)
		if native == 0 || ns < native {
			native = ns
		}
	}
	b.ReportMetric(best, "cpu-ns/op-pct")
	b.ReportMetric(best/native, "x-native-op")
	b.ReportMetric(0, "ns/op")
}
