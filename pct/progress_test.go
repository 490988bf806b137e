package pct

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Programs for long executions, livelocks and hangs (progress.go).

// TestProgLongCompute does a lot of work: two goroutines, 600,000 memory
// accesses each. It is correct and must run to its end.
func TestProgLongCompute(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) { sumInTwo(300_000) })
}

// sumInTwo runs two goroutines that each add up iters numbers in a shared
// slice's element of their own: iters reads and writes apiece, all of them
// scheduling points.
func sumInTwo(iters int) {
	var wg sync.WaitGroup
	sums := make([]int, 2)
	for w := 0; w < 2; w++ {
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			for i := 0; i < iters; i++ {
				Store(sW, &sums[w], Load(sR, &sums[w])+i)
			}
		})
	}
	WGWait(sWG, &wg)
}

// TestProgSpinForever spins on a flag nobody sets: a livelock.
func TestProgSpinForever(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var flag atomic.Bool
		var mu sync.Mutex
		for !Seq(Point(sLoad), flag.Load()) {
			Lock(sLock, &mu)
			Store(sW, &counter, 0) // the value already there: not progress
			Unlock(sUnlock, &mu)
		}
	})
}

// TestProgSpinUntilTimer spins, yielding, until a sleeping goroutine sets
// the flag: time must pass for it, and it is not a livelock.
func TestProgSpinUntilTimer(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var flag atomic.Bool
		Go(sGo, func() {
			Sleep(sSleep, 10*time.Millisecond)
			Point(sOther)
			flag.Store(true)
		})
		for !Seq(Point(sLoad), flag.Load()) {
		}
	})
}

// TestProgPollForever polls every millisecond for a condition that never
// holds: go test would time out; gopct reports a hang.
func TestProgPollForever(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var ready atomic.Bool
		tick := NewTicker(sSleep, time.Millisecond)
		defer tick.Stop()
		for !Seq(Point(sLoad), ready.Load()) {
			Recv(sRecv, tick.C)
		}
	})
}

// TestProgPollTimeout polls every millisecond for 20 s, then fails: 20,000
// ticks of fake time.
func TestProgPollTimeout(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var ready atomic.Bool
		tick := NewTicker(sSleep, time.Millisecond)
		defer tick.Stop()
		for i := 0; !Seq(Point(sLoad), ready.Load()); i++ {
			if i == 20_000 {
				TError(sFail, t, "Fatal", "not ready after 20 s")
			}
			Recv(sRecv, tick.C)
		}
	})
}

func TestLongComputationFinishes(t *testing.T) {
	recs := campaign(t, "TestProgLongCompute", Config{Spec: testSpec("pct"), Seed: 1, Iters: 3})
	done := recs[len(recs)-1]
	if done.Type != RecDone || done.Finished != 3 || done.Abandoned != 0 {
		t.Fatalf("got %+v, want 3 finished executions", done)
	}
}

func TestSpinLoopIsLivelock(t *testing.T) {
	for _, s := range []string{"pct", "random"} {
		b := mustFind(t, "TestProgSpinForever", s, 1, 3, "livelock")
		if b.Execution != 0 {
			t.Errorf("%s: livelock found in execution %d, want 0", s, b.Execution)
		}
	}
}

func TestSpinUntilTimerIsNoLivelock(t *testing.T) {
	for _, s := range []string{"pct", "random"} {
		recs := campaign(t, "TestProgSpinUntilTimer", Config{Spec: testSpec(s), Seed: 1, Iters: 5})
		done := recs[len(recs)-1]
		if done.Type != RecDone || done.Finished != 5 {
			t.Errorf("%s: %+v, want 5 finished executions and no bug", s, done)
		}
	}
}

func TestPollForeverIsHang(t *testing.T) {
	timeout := int64(30 * time.Second)
	recs := campaign(t, "TestProgPollForever", Config{Spec: testSpec("pct"), Seed: 1, Iters: 2, Timeout: timeout})
	if recs[0].Type != RecBug || recs[0].Bug.Kind != FailHang {
		t.Fatalf("got %+v, want a hang", recs[0])
	}
	b := recs[0].Bug
	recs = campaign(t, "TestProgPollForever", Config{Spec: testSpec("replay"), Replay: b.Schedule, First: b.Execution,
		Iters: b.Execution + 1, Timeout: timeout})
	r := recs[len(recs)-1]
	if r.Diverged != "" || r.Outcome == nil || r.Outcome.Kind != FailHang {
		t.Errorf("replay: %+v", r)
	}
}

func TestPollTimeoutFails(t *testing.T) {
	mustFind(t, "TestProgPollTimeout", "pct", 1, 1, "fail")
}

// TestProgLongReadsUntrackedWrites reads a tracked variable (other) in a
// long loop and makes its progress by writing sums, which variable
// bounding does not track.
func TestProgLongReadsUntrackedWrites(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		sums := make([]int, 2)
		for w := 0; w < 2; w++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for i := 0; i < 700_000; i++ {
					_ = Load(sR2, &other)
					Store(sW, &sums[w], Load(sR, &sums[w])+1)
				}
			})
		}
		WGWait(sWG, &wg)
	})
}

// TestUntrackedProgressIsNoLivelock: with only other's sites active, the
// livelock window must still see the writes to sums (it widens the sites).
func TestUntrackedProgressIsNoLivelock(t *testing.T) {
	recs := campaign(t, "TestProgLongReadsUntrackedWrites", Config{Spec: testSpec("pct"), Seed: 1, Iters: 2,
		Sites: []int{sR2, sW2}})
	done := recs[len(recs)-1]
	if done.Type != RecDone || done.Finished != 2 {
		t.Fatalf("got %+v, want 2 finished executions and no bug", recs[0])
	}
}

// TestProgLongThenFail runs long enough for a livelock window in which two
// goroutines take turns at every point, then fails.
func TestProgLongThenFail(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		sumInTwo(600_000)
		TError(sFail, t, "Fatal", "done")
	})
}

// TestReplayAfterWindow: a bug found after a livelock window replays
// without divergence. The window's round robin is the engine's, in the
// recording and in the replay alike, so its switches need not be in the
// schedule (they were: 65,536 switches of no use to the replay, a token
// too long for a command line).
func TestReplayAfterWindow(t *testing.T) {
	for _, s := range []string{"pct", "random"} {
		b := mustFind(t, "TestProgLongThenFail", s, 1, 1, "fail") // replays it
		t.Logf("%s: schedule of %d bytes, %d steps", s, len(b.Schedule), b.Steps)
		if len(b.Schedule) > 1000 {
			t.Errorf("%s: a schedule of %d bytes: the windows' switches are in it", s, len(b.Schedule))
		}
		if s == "pct" && b.Preemptions != 0 { // the first execution has no change point
			t.Errorf("pct: %d preemptions, want 0: the windows' turns were counted", b.Preemptions)
		}
	}
}

// TestStallClockIgnoresStarvation: ticks on time add up to a stall; a tick
// that comes seconds late (the process did not run) counts one period.
func TestStallClockIgnoresStarvation(t *testing.T) {
	t0 := time.Unix(0, 0)
	c := stallClock{last: t0}
	now := t0
	for range 10 {
		now = now.Add(watchdogPeriod)
		c.tick(now, false)
	}
	if c.idle != 10*watchdogPeriod {
		t.Fatalf("on-time ticks: idle %v", c.idle)
	}
	now = now.Add(30 * time.Second) // starved for 30 s
	if got := c.tick(now, false); got != 11*watchdogPeriod {
		t.Fatalf("after a late tick: idle %v, want %v", got, 11*watchdogPeriod)
	}
	if got := c.tick(now.Add(watchdogPeriod), true); got != 0 {
		t.Fatalf("after progress: idle %v", got)
	}
}

// TestWindowTurns: a livelock window's round robin gives the runnable
// goroutines turns in id order after the current one, a yield ends a turn,
// a turn lasts 1 to 2*liveQuantum-1 points (liveQuantum on average), and
// the turns are the same for a window opened at the same step (a replay's).
func TestWindowTurns(t *testing.T) {
	gs := []*G{{id: 0}, {id: 1}, {id: 2}}
	run := func(start, points, yieldAt int) (order, lengths []int) {
		e := &execution{live: &liveCheck{start: start}}
		cur, n := gs[0], 0
		for i := range points {
			d := &Decision{Cur: cur, CurRuns: true, Choices: gs, Yield: i == yieldAt}
			next := gs[e.fairNext(d)]
			if next != cur || i == 0 {
				order = append(order, next.id)
				if i > 0 {
					lengths = append(lengths, n)
				}
				n = 0
			}
			n++
			cur = next
		}
		return order, lengths
	}
	order, lengths := run(1<<20, 2000*liveQuantum, -1)
	for i, id := range order {
		if want := (i + 1) % 3; id != want {
			t.Fatalf("turn %d went to g%d, want g%d (round robin): %v", i, id, want, order[:i+1])
		}
	}
	sum := 0
	for _, n := range lengths {
		if n < 1 || n > 2*liveQuantum-1 {
			t.Fatalf("a turn of %d points", n)
		}
		sum += n
	}
	if mean := sum / len(lengths); mean < liveQuantum-4 || mean > liveQuantum+4 {
		t.Errorf("turns of %d points on average, want about %d", mean, liveQuantum)
	}
	if slices.Min(lengths) == slices.Max(lengths) {
		t.Errorf("every turn lasted %d points: a loop's period can lock onto them", lengths[0])
	}
	again, lengths2 := run(1<<20, 2000*liveQuantum, -1)
	if !slices.Equal(order, again) || !slices.Equal(lengths, lengths2) {
		t.Errorf("a window opened at the same step took other turns: a replay would diverge")
	}
	if _, other := run(1<<21, 2000*liveQuantum, -1); slices.Equal(lengths[:50], other[:50]) {
		t.Errorf("windows opened at other steps took the same turns")
	}

	// A yield ends the turn at once: g1's turn began at point 0, and the
	// yield at point 3 hands over to g2 there.
	order, lengths = run(1<<20, 10*liveQuantum, 3)
	if order[0] != 1 || order[1] != 2 || lengths[0] != 3 {
		t.Errorf("after a yield at point 3: turns %v of %v points, want g1 for 3 points, then g2", order[:2], lengths[:1])
	}
}

// TestWindowTimePasses: in a window, time passes at one turn in n+1 on
// average (n runnable goroutines), not at every (n+1)-th: fixed rounds
// locked into the period of a loop that sleeps between handoffs (GoKer's
// cockroach2448: a round always began at the same point of the loop, and
// the deadlock that needs another never came; testscript window_phase).
func TestWindowTimePasses(t *testing.T) {
	gs := []*G{{id: 0}, {id: 1}, {id: 2}}
	e := &execution{live: &liveCheck{start: 1 << 20}}
	var cur *G
	var passes []int // turns between two passes of time
	turns, since := 0, 0
	for range 4000 * liveQuantum {
		d := &Decision{Cur: cur, CurRuns: cur != nil, Choices: gs, CanPassTime: true, Yield: cur != nil}
		p := e.fairNext(d) // a yield at every point: each decision begins a turn
		turns++
		if p == PassTime {
			passes = append(passes, since)
			since = 0
			cur = nil
			continue
		}
		since++
		cur = gs[p]
	}
	if got, want := len(passes), turns/4; got < want*9/10 || got > want*11/10 {
		t.Errorf("time passed %d times in %d turns, want about %d", got, turns, want)
	}
	if slices.Min(passes) == slices.Max(passes) {
		t.Errorf("time passed every %d turns: a loop's period can lock onto it", passes[0])
	}
}

// TestStuckAdvice: a token holder blocked inside code gopct does not
// instrument is told about -deps; when unmanaged goroutines ran the test's
// code (net/http's server handlers, tollbooth's
// Test_Issue66_CustomRateLimitByHeaderValues), the message names them too,
// by file base name.
func TestStuckAdvice(t *testing.T) {
	e := &execution{}
	if got := e.stuckAdvice(); !strings.Contains(got, "-deps auto,MODULE") {
		t.Errorf("no unmanaged goroutine: %q", got)
	}
	e.unmanaged.Add(1)
	at := "/home/u/srv/srv_test.go:14"
	e.unmanagedAt.Store(&at)
	got := e.stuckAdvice()
	if !strings.Contains(got, "first at srv_test.go:14)") || !strings.Contains(got, "net/http's server") || strings.Contains(got, "/home/u") {
		t.Errorf("unmanaged goroutines ran the test's code: %q", got)
	}
}

// TestProgressedWindowTurnsAreLong: once a window has progressed, with no
// timer pending, its turns last progressedQuantum points on average: with
// turns of liveQuantum (32) points a window of 65,536 steps made ~2,000
// handoffs (issue 11). TestProgLongThenFail's two goroutines write at
// every step, so both windows progress at once; the trace keeps the
// windows' first switches.
func TestProgressedWindowTurnsAreLong(t *testing.T) {
	recs := campaign(t, "TestProgLongThenFail", Config{Spec: Spec{Name: "pct", D: 3}, Seed: 1, Iters: 1})
	b := recs[0].Bug
	if b == nil {
		t.Fatalf("no bug: %+v", recs[len(recs)-1])
	}
	var gaps, turns int
	last := -1
	for _, ev := range b.Trace {
		if ev.Reason != "livelock check: round robin" {
			continue
		}
		if last >= 0 && ev.Step-last < liveWindow {
			gaps += ev.Step - last
			turns++
		}
		last = ev.Step
	}
	if turns == 0 {
		t.Fatal("no turn of a window in the trace")
	}
	t.Logf("%d turns, %d points each on average", turns, gaps/turns)
	if gaps/turns < 8*liveQuantum {
		t.Errorf("turns of %d points on average, want about %d", gaps/turns, progressedQuantum)
	}
}
