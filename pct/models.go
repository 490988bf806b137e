package pct

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// WaitGroup, Once and Cond are modelled entirely by the scheduler: a
// goroutine that would block is disabled (parked on its wake channel, which
// the bubble sees as durably blocked) until the model enables it. The real
// WaitGroup and Once are still called so their state stays consistent.

type wgModel struct {
	count   int
	waiters []*G
	// shadow: the real WaitGroup follows the model's Adds in this
	// execution. Not when an earlier execution's bubble owns it (see
	// wgOwnedByABubble): its Add would be fatal.
	shadow bool
}

// wgBubbleFlag is sync's waitGroupBubbleFlag: the bit of a WaitGroup's state
// that Add sets when it is called in a testing/synctest bubble, and that
// stays set, with the WaitGroup associated with that bubble, until the
// counter returns to zero while a real Wait waits. The model never waits
// on the real WaitGroup, so a heap WaitGroup that one execution added to
// stays its bubble's for ever, and an Add from the next execution's bubble
// is a fatal error ("sync: WaitGroup.Add called from multiple synctest
// bubbles") that kills the worker: go-zero's process-wide shutdown
// listeners (core/proc) add to one WaitGroup per PeriodicalExecutor, in
// every execution (sweep fresh28). Package-level WaitGroups are never
// associated (the runtime cannot attach a bubble to them).
const wgBubbleFlag = 0x8000_0000

// wgOwnedByABubble reports whether a testing/synctest bubble owns wg. It
// reads the state word that leads sync.WaitGroup (after its zero-size
// noCopy); TestWaitGroupBubbleFlag checks the layout.
func wgOwnedByABubble(wg *sync.WaitGroup) bool {
	return (*atomic.Uint64)(unsafe.Pointer(wg)).Load()&wgBubbleFlag != 0
}

func wgAdd(site int, wg *sync.WaitGroup, delta int) {
	e, g := self()
	if e == nil {
		wg.Add(delta)
		external(extOp{kind: extWGAdd, obj: unsafe.Pointer(wg), delta: delta})
		return
	}
	e.point(g, site)
	e.applyQueued() // operations of unmanaged goroutines first (external.go)
	m := e.wgModel(wg)
	if delta > 0 && m.count == 0 {
		// The increment from zero must be ordered with a Wait that
		// waits: a read of the WaitGroup's wait state, which such a Wait
		// writes (wgWait), as sync's race annotations model it.
		e.note(EvRead, g, site, objOf(unsafe.Pointer(m)))
	}
	m.count += delta
	if m.count < 0 {
		m.count = 0
		panic("sync: negative WaitGroup counter") // as sync does, in the caller
	}
	e.note(EvRelease, g, site, objOf(unsafe.Pointer(wg)))
	if m.shadow {
		wg.Add(delta)
	}
	if m.count == 0 {
		e.wakeAll(&m.waiters)
	}
}

func wgWait(site int, wg *sync.WaitGroup) {
	e, g := self()
	if e == nil {
		wg.Wait()
		return
	}
	e.point(g, site)
	e.applyQueued() // operations of unmanaged goroutines first (external.go)
	m := e.wgModel(wg)
	if m.count > 0 && len(m.waiters) == 0 {
		// The first Wait that waits writes the wait state that an Add
		// from zero reads (wgAdd): unordered, the two are a data race, as
		// go test -race reports it (an Add concurrent with a Wait:
		// GoBench's cockroach4407, a Stopper's RunWorker adding while
		// Stop waits). Later waiters do not write: concurrent Waits are
		// fine. The location is the model, which no program code can
		// touch.
		e.note(EvWrite, g, site, objOf(unsafe.Pointer(m)))
	}
	for m.count > 0 {
		m.waiters = append(m.waiters, g)
		e.disable(g, "waiting in WaitGroup.Wait at "+sitePos(site))
	}
	e.note(EvAcquire, g, site, objOf(unsafe.Pointer(wg)))
}

func (e *execution) wgModel(wg *sync.WaitGroup) *wgModel {
	if m, ok := e.models[wg].(*wgModel); ok {
		return m
	}
	// A WaitGroup first met in this execution and already owned by a
	// bubble is an earlier execution's: the model alone stands for it
	// here (code gopct does not instrument that waits on it really would
	// not see this execution's Adds).
	m := &wgModel{shadow: !wgOwnedByABubble(wg)}
	e.models[wg] = m
	return m
}

type onceModel struct {
	done    bool
	running *G
	waiters []*G
}

func onceDo(site int, o *sync.Once, f func()) {
	e, g := self()
	if e == nil {
		o.Do(f)
		return
	}
	e.point(g, site)
	m, ok := e.models[o].(*onceModel)
	if !ok {
		m = &onceModel{}
		e.models[o] = m
	}
	for m.running != nil && !m.done {
		m.waiters = append(m.waiters, g)
		e.disable(g, "waiting in Once.Do at "+sitePos(site))
	}
	if m.done {
		e.note(EvAcquire, g, site, objOf(unsafe.Pointer(o)))
		return
	}
	m.running = g
	e.note(EvAcquire, g, site, objOf(unsafe.Pointer(o))) // g takes the Once: others now wait
	defer func() {
		m.done = true
		e.note(EvRelease, g, site, objOf(unsafe.Pointer(o)))
		e.wakeAll(&m.waiters)
	}()
	o.Do(f)
}

type condModel struct{ waiters []*G }

func condWait(site int, c *sync.Cond) {
	e, g := self()
	if e == nil {
		c.Wait()
		return
	}
	e.applyQueued()
	m := e.condModel(c)
	m.waiters = append(m.waiters, g)
	g.waitObj = c
	lockerOp(site, c.L, false)
	for g.waitObj == c {
		e.disable(g, "waiting in Cond.Wait at "+sitePos(site))
	}
	e.note(EvAcquire, g, site, objOf(unsafe.Pointer(c)))
	lockerOp(site, c.L, true)
}

func condNotify(site int, c *sync.Cond, all bool) {
	e, g := self()
	if e == nil {
		kind := extSignal
		if all {
			c.Broadcast()
			kind = extBroadcast
		} else {
			c.Signal()
		}
		external(extOp{kind: kind, obj: unsafe.Pointer(c)})
		return
	}
	e.point(g, site)
	e.applyQueued() // operations of unmanaged goroutines first (external.go)
	e.note(EvRelease, g, site, objOf(unsafe.Pointer(c)))
	e.notifyWaiters(e.condModel(c), all)
}

// notifyWaiters enables the first waiter of a Cond, or all of them.
func (e *execution) notifyWaiters(m *condModel, all bool) {
	for len(m.waiters) > 0 {
		w := m.waiters[0]
		m.waiters = m.waiters[1:]
		w.waitObj = nil
		e.enable(w)
		if !all {
			break
		}
	}
}

func (e *execution) condModel(c *sync.Cond) *condModel {
	if m, ok := e.models[c].(*condModel); ok {
		return m
	}
	m := &condModel{}
	e.models[c] = m
	return m
}

// sleepingAt begins what a goroutine in a managed time.Sleep waits for; the
// report's goroutine table shows it as sleeping, not blocked.
const sleepingAt = "sleeping at "

func sleepOp(site int, d time.Duration) {
	e, g := self()
	if e == nil {
		time.Sleep(d)
		return
	}
	e.point(g, site)
	if d <= 0 {
		return
	}
	d = addDuration(d, sleepOvershoot) // time.Sleep(1<<63 - 1) blocks for ever
	e.timers.add(now().Add(d), 0)
	e.note(EvTimer, g, site, 0)
	e.blockIn(g, 0, sleepingAt+sitePos(site), func() { time.Sleep(d) })
}

// sleepOvershoot: a managed time.Sleep(d) returns 1µs after d. time.Sleep
// pauses "for at least" d, and a real one always returns later (timer
// slack, wake-up latency), while the fake clock returns exactly at d and
// runs the code around it in no time. go-resiliency's breaker tests sleep
// exactly their 10ms error expiry and check it with time.Now().After: in
// fake time the expiry never passed, the breaker opened, and gopct
// reported a failure that no real run can show.
const sleepOvershoot = time.Microsecond
