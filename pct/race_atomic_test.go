package pct

import (
	"strings"
	"sync/atomic"
	"testing"
)

// A sync/atomic function's address (AtomicAt, PointAt) makes the operation
// an access the race detector checks: unordered with a plain access to the
// same memory it is a race (GoBench's istio8214: atomic.AddUint64 on a
// counter that another method reads plainly; serving6472: a plain += on a
// counter that workers decrement with atomic.AddInt32); two atomics never
// race, and a plain access ordered by other synchronisation does not.

var raceA int64

func atomicAddrProg(t *testing.T, body func()) {
	skipNative(t)
	RunTest(t, func(*testing.T) {
		raceA = 0
		body()
	})
}

// Two goroutines add atomically: no race.
func TestProgRaceAtomicAddrOK(t *testing.T) {
	atomicAddrProg(t, func() {
		done := make(chan bool)
		Go(sGo, func() { atomic.AddInt64(AtomicAt(sAtomic, &raceA), 1); Send(sSend, done, true) })
		atomic.AddInt64(AtomicAt(sAtomic, &raceA), 1)
		Recv(sRecv, done)
	})
}

// A plain read after a receive that the atomic add's goroutine sent after
// the add: ordered, no race.
func TestProgRaceAtomicAddrOrdered(t *testing.T) {
	atomicAddrProg(t, func() {
		done := make(chan bool)
		Go(sGo, func() {
			a := &raceA
			PointAt(sAtomic, a)
			atomic.AddInt64(a, 1)
			Send(sSend, done, true)
		})
		Recv(sRecv, done)
		_ = Load(sR, &raceA)
	})
}

// A plain read unordered with an atomic add: a race, whichever comes
// first.
func TestProgRaceAtomicAddrBad(t *testing.T) {
	atomicAddrProg(t, func() {
		done := make(chan bool)
		Go(sGo, func() { atomic.AddInt64(AtomicAt(sAtomic, &raceA), 1); Send(sSend, done, true) })
		_ = Load(sR, &raceA)
		Recv(sRecv, done)
	})
}

// A plain write unordered with an atomic add.
func TestProgRaceAtomicAddrBadWrite(t *testing.T) {
	atomicAddrProg(t, func() {
		done := make(chan bool)
		Go(sGo, func() { Store(sW, &raceA, 5); Send(sSend, done, true) })
		atomic.AddInt64(AtomicAt(sAtomic, &raceA), 1)
		Recv(sRecv, done)
	})
}

func TestRaceAtomicAddress(t *testing.T) {
	for _, c := range []struct {
		prog string
		racy bool
		want string // in the race's message
	}{
		{"TestProgRaceAtomicAddrOK", false, ""},
		{"TestProgRaceAtomicAddrOrdered", false, ""},
		{"TestProgRaceAtomicAddrBad", true, "atomic write at prog.go:18:1"},
		{"TestProgRaceAtomicAddrBadWrite", true, "atomic write at prog.go:18:1"},
	} {
		bug := raceBug(t, c.prog, 100)
		if raceVerdict(t, c.prog, c.racy, 0, bug) && !strings.Contains(bug.Message, c.want) {
			t.Errorf("%s: %s, want %q in it", c.prog, bug.Message, c.want)
		}
	}
}
