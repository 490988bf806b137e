package pct

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"
)

func spawn(site int, f func()) {
	e, g := self()
	if e == nil {
		outsideGs.Add(1)
		go runOutside(f)
		return
	}
	e.point(g, site)
	c := e.newG(g, site)
	if e.observing {
		e.emit(Event{Kind: EvSpawn, G: g.id, Other: c.id, Site: site, Op: KindGo})
	}
	go func() {
		e.park(c)
		e.runG(c, f)
	}()
}

// runG runs the body of a managed goroutine and reports how it ended.
func (e *execution) runG(c *G, f func()) {
	normal := false
	defer e.exitG(c, &normal)
	f()
	normal = true
}

// exitG is deferred by every managed goroutine. A panic is a failure of the
// execution (in Go it would crash the program); a Goexit (t.FailNow from a
// goroutine) is an ordinary exit, the test's Failed state tells the rest.
func (e *execution) exitG(c *G, normal *bool) {
	e.reclaim()
	e.closeIfHolder()
	if r := recover(); r != nil {
		e.failPanic(c, r)
		return
	}
	if e.aborted.Load() {
		return
	}
	e.note(EvExit, c, -1, 0)
	e.setState(c, gDone)
	if e.bodyDone && e.othersDone() {
		e.enable(e.gs[0])
	}
	e.handOff(c, false)
}

// trimStack drops the frames of gopct's runtime and of the panic machinery
// from a goroutine's stack, keeping the user's.
func trimStack(lines []string) string {
	out := lines[:1:1] // "goroutine N [running]:"
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if strings.Contains(fn, "gopct.invalid/rt.") || strings.HasPrefix(fn, "runtime/debug.") || strings.HasPrefix(fn, "panic(") {
			continue
		}
		out = append(out, fn, lines[i+1])
	}
	return strings.Join(out, "\n")
}

func (e *execution) othersDone() bool {
	for _, g := range e.gs[1:] {
		if g.state != gDone && g.state != gDormant {
			return false
		}
	}
	return true
}

func (e *execution) failPanic(g *G, r any) {
	e.closeIfHolder()
	if msg := fmt.Sprint(r); unsupportedPanic(msg) {
		e.fail(&Failure{Kind: FailUnsupported, Site: g.site, Goroutine: g.id, Message: msg + ": " + unsupportedHint})
		return
	}
	stack := string(debug.Stack())
	frames := strings.Split(stack, "\n")
	e.fail(&Failure{
		Kind:      FailPanic,
		Message:   fmt.Sprint(r),
		Site:      g.site,
		Where:     firstUserFrame(frames[1:]), // where it panicked, not the last scheduling point
		Goroutine: g.id,
		Stack:     trimStack(frames),
	})
}

// adoptFunc wraps the function of time.AfterFunc so that it runs as a
// managed goroutine. Its id is taken now, under the token, so that ids stay
// deterministic even when several timers fire at the same instant.
func adoptFunc(site int, f func()) func() { return adopt(site, f, false) }

// adopt makes f, a callback that code gopct does not instrument will start
// on a goroutine of its own, a managed goroutine. eager says that the
// callback may start while a managed goroutine runs (context.AfterFunc: a
// cancel function called by the test); every scheduling point then settles,
// so that the callback joins the runnable goroutines at a deterministic
// point. Timer callbacks start only while time passes, when nobody runs.
func adopt(site int, f func(), eager bool) func() {
	e, g := self()
	if e == nil {
		return f
	}
	c := e.adoptG(g, site, eager)
	return func() {
		if current.Load() != e {
			f()
			return
		}
		e.comeBack(c)
		e.runG(c, f)
	}
}

// adoptG makes the dormant goroutine of a callback adopted by g at site.
func (e *execution) adoptG(g *G, site int, eager bool) *G {
	c := e.newG(g, site)
	c.state = gDormant
	c.eager = eager
	e.dormant++
	if eager {
		e.eager++
		e.unfast()
	}
	if e.observing {
		e.emit(Event{Kind: EvSpawn, G: g.id, Other: c.id, Site: site, Op: KindTimer})
	}
	return c
}

// timerCallback is the goroutine of a time.AfterFunc timer's next firing.
// A timer Reset after it fired fires again, on a goroutine of its own, which
// may run beside the first (Go starts each firing's f in a new goroutine):
// TimerReset gives the timer a new dormant goroutine when the last one has
// started. One goroutine for every firing ran two callbacks as one G:
// groupbytraceprocessor's subtrace timer (Reset at each turn) fired again
// while the first callback was still in fire, holding a read lock, and the
// second's exit made that G done: a FALSE hang ("read-locked by g28", g28
// exited) whose replay diverged (sweep fresh36).
type timerCallback struct {
	site    int
	c       *G
	started bool
}

// adoptTimer is adoptFunc for time.AfterFunc: the goroutine of each firing
// is the callback's current one (timerCallback).
func adoptTimer(site int, f func()) (func(), *timerCallback) {
	e, g := self()
	if e == nil {
		return f, nil
	}
	tc := &timerCallback{site: site, c: e.adoptG(g, site, false)}
	return func() {
		if current.Load() != e {
			f()
			return
		}
		e.mu.Lock()
		c := tc.c
		tc.started = true
		e.mu.Unlock()
		e.comeBack(c)
		e.runG(c, f)
	}, tc
}

// rearm gives a timer whose callback has started a new dormant goroutine
// for its next firing; run by g, the goroutine that resets the timer.
func (e *execution) rearm(g *G, t *time.Timer) {
	tc := e.timerCallbacks[t]
	if tc == nil {
		return
	}
	e.mu.Lock()
	started := tc.started
	e.mu.Unlock()
	if !started {
		return
	}
	c := e.adoptG(g, tc.site, false)
	e.mu.Lock()
	tc.c, tc.started = c, false
	e.mu.Unlock()
}
