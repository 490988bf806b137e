package pct

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// eventLog is an observer that writes the event stream of every execution
// to the file named by GOPCT_TEST_EVENTS, one execution per line.
type eventLog struct {
	path string
	evs  []string
}

func init() {
	RegisterObserver(func(*Config) Observer {
		if p := os.Getenv("GOPCT_TEST_EVENTS"); p != "" {
			return &eventLog{path: p}
		}
		return nil
	})
}

func (l *eventLog) Observe(ev *Event) {
	s := fmt.Sprintf("%s:g%d", ev.Kind, ev.G)
	switch ev.Kind {
	case EvSpawn:
		s += fmt.Sprintf(">g%d", ev.Other)
	case EvRead, EvWrite, EvAcquire, EvRelease, EvChan, EvAtomic:
		s += "@" + siteTable[ev.Site].Expr
	}
	l.evs = append(l.evs, s)
}

func (l *eventLog) Finish(ExecOutcome) *Failure {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err == nil {
		fmt.Fprintln(f, strings.Join(l.evs, " "))
		f.Close()
	}
	return nil
}

func TestProgEvents(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		ch := make(chan int, 1)
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			Lock(sLock, &mu)
			Store(sW, &counter, 1)
			Unlock(sUnlock, &mu)
			Send(sSend, ch, 1)
			WGDone(sWG, &wg)
		})
		Recv(sRecv, ch)
		WGWait(sWG, &wg)
		_ = Load(sR, &counter)
	})
}

// TestEventStream checks the exact event stream of a small program under
// PCT with seed 1: every primitive reports its synchronisation, memory
// accesses carry their site, and scheduler handoffs are not events.
func TestEventStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.txt")
	t.Setenv("GOPCT_TEST_EVENTS", path)
	campaign(t, "TestProgEvents", Config{Spec: testSpec("pct"), Seed: 1, Iters: 1})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(data))
	// g0 blocks for real in the receive, is woken by g1's send, then
	// waits in the WaitGroup model until g1's Done. The Add from zero
	// reads the WaitGroup's wait state, and the Wait that waits writes it
	// (the race detector's Add-concurrent-with-Wait check, models.go).
	want := "read:g0@ release:g0@ spawn:g0>g1 block:g0 acquire:g1@ write:g1@x release:g1@ chan:g1@ wake:g0 " +
		"write:g0@ block:g0 release:g1@ exit:g1 wake:g0 acquire:g0@ read:g0@x"
	if got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
}

var other int

func TestProgTwoVariables(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		var n atomic.Int32
		ch := make(chan int, 1)
		done := make(chan bool)
		Go(sGo, func() {
			Lock(sLock, &mu)
			Store(sW, &counter, Load(sR, &counter)+1)
			Store(sW2, &other, Load(sR2, &other)+1)
			Unlock(sUnlock, &mu)
			Seq(Point(sLoad), n.Load())
			Send(sSend, ch, 1)
			Send(sSend, done, true)
		})
		Recv(sRecv, ch)
		Recv(sRecv, done)
	})
}

// TestActivatingOneVariableKeepsSyncPoints: with only the sites of x (sR,
// sW) active, every synchronisation event is still reported, and the only
// memory events are x's.
func TestActivatingOneVariableKeepsSyncPoints(t *testing.T) {
	events := func(sites []int) string {
		path := filepath.Join(t.TempDir(), "events.txt")
		t.Setenv("GOPCT_TEST_EVENTS", path)
		campaign(t, "TestProgTwoVariables", Config{Spec: testSpec("pct"), Seed: 1, Iters: 1, Sites: sites})
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(data))
	}
	all, onlyX := events(nil), events([]int{sR, sW})
	drop := func(s, v string) string {
		var keep []string
		for _, f := range strings.Fields(s) {
			if !strings.HasSuffix(f, "@"+v) {
				keep = append(keep, f)
			}
		}
		return strings.Join(keep, " ")
	}
	if want := drop(all, "y"); onlyX != want {
		t.Errorf("with x's sites only:\n got %s\nwant %s (all events but y's)", onlyX, want)
	}
	if !strings.Contains(onlyX, "write:g1@x") || strings.Contains(onlyX, "@y") || !strings.Contains(onlyX, "atomic:g1@flag.Load()") {
		t.Errorf("events %s", onlyX)
	}
}
