package pct

import (
	"strings"
	"sync"
	"testing"
)

// A WaitGroup.Add that raises the counter from zero must be ordered with a
// Wait that waits, as go test -race checks it (sync's race annotations: the
// Add reads the WaitGroup's wait state, the first waiting Wait writes it).
// GoBench's cockroach4407: a Stopper's RunWorker adds from a goroutine the
// test started while the test's Stop waits.

// The goroutine adds while the test may be waiting, but the counter is
// not zero then: no race.
func TestProgRaceWGAddInGoroutine(t *testing.T) {
	raceProg(t, func(*testing.T) {
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 1) // the goroutine's own: the counter is not zero when it adds
		Go(sGo, func() {
			WGAdd(sWG, &wg, 1)
			WGDone(sWG, &wg)
			WGDone(sWG, &wg)
		})
		WGWait(sWGWait, &wg)
	})
}

// The classic misuse: the Add inside the goroutine, the counter at zero.
func TestProgRaceWGAddFromZeroInGoroutine(t *testing.T) {
	raceProg(t, func(*testing.T) {
		var wg sync.WaitGroup
		done := make(chan bool, 1)
		Go(sGo, func() {
			WGAdd(sWG, &wg, 1)
			Send(sSend, done, true)
			WGDone(sWG, &wg)
		})
		WGWait(sWGWait, &wg)
		Recv(sRecv, done)
	})
}

// The Add before the go statement: ordered, no race, however often the
// WaitGroup is reused.
func TestProgRaceWGAddBeforeGo(t *testing.T) {
	raceProg(t, func(*testing.T) {
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			WGAdd(sWG, &wg, 2)
			for j := 0; j < 2; j++ {
				Go(sGo, func() { WGDone(sWG, &wg) })
			}
			WGWait(sWGWait, &wg)
		}
	})
}

// Two goroutines wait on one WaitGroup: concurrent Waits are fine.
func TestProgRaceWGTwoWaiters(t *testing.T) {
	raceProg(t, func(*testing.T) {
		var wg, all sync.WaitGroup
		WGAdd(sWG, &wg, 1)
		WGAdd(sWG, &all, 2)
		for j := 0; j < 2; j++ {
			Go(sGo, func() { WGWait(sWGWait, &wg); WGDone(sWG, &all) })
		}
		WGDone(sWG, &wg)
		WGWait(sWGWait, &all)
	})
}

func TestRaceWaitGroupAddWait(t *testing.T) {
	for _, c := range []struct {
		prog string
		racy bool
		at   int
	}{
		// The counter is one when the goroutine adds: not from zero,
		// no race (as for go test -race).
		{"TestProgRaceWGAddInGoroutine", false, 0},
		// Execution 0 runs the Wait first, at zero: it does not wait.
		{"TestProgRaceWGAddFromZeroInGoroutine", true, 1},
		{"TestProgRaceWGAddBeforeGo", false, 0},
		{"TestProgRaceWGTwoWaiters", false, 0},
	} {
		bug := raceBug(t, c.prog, 100)
		if raceVerdict(t, c.prog, c.racy, c.at, bug) &&
			!(strings.Contains(bug.Message, "WaitGroup.Add from zero") && strings.Contains(bug.Message, "waiting WaitGroup.Wait")) {
			t.Errorf("%s: %s", c.prog, bug.Message)
		}
	}
}
