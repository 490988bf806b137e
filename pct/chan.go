package pct

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Channel operations run for real: the scheduler first tries them without
// blocking; only if that fails does the goroutine block in the real
// operation, after handing the token on. A successful operation may have
// woken a goroutine blocked in a real operation, so the next scheduling
// point settles first.

// chanOp is the operation at site on channel ch by g, the token holder:
// try attempts it without blocking, block performs it.
// A channel made outside the test that only the execution's goroutines can
// use is waited on through the goroutine's kick channel instead (a real
// operation on it never blocks durably: foreign.go).
func (e *execution) chanOp(g *G, site int, ch unsafe.Pointer, try func() bool, block func()) {
	e.point(g, site)
	e.noteForeign(ch)
	for {
		if try() {
			e.note(EvChan, g, site, objOf(ch))
			e.noteWake()
			e.kickIfOutside(ch)
			return
		}
		if !maskable(ch) {
			e.blockIn(g, objOf(ch), "blocked at "+siteOp(site), block)
			return
		}
		e.waitMasked(g)
		e.blockIn(g, objOf(ch), "blocked at "+siteOp(site), func() { <-g.kick })
		e.doneMasked(g)
	}
}

// outsideChans are the channels made by instrumented code outside any
// execution (package variables, init); outsideN counts them. Entries are
// never removed.
var (
	outsideMu    sync.Mutex
	outsideChans = map[unsafe.Pointer]bool{}
	outsideN     atomic.Int64
)

func noteOutsideChan(c unsafe.Pointer) {
	outsideMu.Lock()
	outsideChans[c] = true
	outsideN.Store(int64(len(outsideChans)))
	outsideMu.Unlock()
}

// noteForeign remembers that the execution used a channel made outside it.
// Once it has, or while no channel was made outside any, there is nothing
// to look up (issue 11: the lock and the lookup were a third of a channel
// operation's scheduling cost).
func (e *execution) noteForeign(c unsafe.Pointer) {
	if e.foreignChan || outsideN.Load() == 0 {
		return
	}
	outsideMu.Lock()
	if outsideChans[c] {
		e.foreignChan = true
	}
	outsideMu.Unlock()
}

// noteWake records that the last operation may have woken a goroutine
// blocked in a real operation.
func (e *execution) noteWake() {
	if e.inOp > 0 {
		e.mayWake = true
		e.unfast()
	}
}

func markWoken() {
	if e, _ := self(); e != nil {
		e.noteWake()
	}
}

// selectOp is Select; chans, when not nil, names the case taken in the
// select's events (emitSelect).
func selectOp(site, n int, hasDefault bool, try func(int) bool, block func() int, chans func(int) (uintptr, bool)) int {
	e, g := self()
	if e == nil {
		for i := 0; i < n; i++ {
			if try(i) {
				return i
			}
		}
		if hasDefault {
			return -1
		}
		return block()
	}
	foreign, masked := g.selForeign, g.selMasked // set by Mask (foreign.go)
	g.selForeign, g.selMasked = false, false
	e.point(g, site)
	for {
		if i, ok := e.trySelect(g, site, n, try, chans); ok {
			if foreign {
				e.kickMasked()
			}
			return i
		}
		if hasDefault {
			return -1
		}
		chosen := -1
		if masked {
			e.waitMasked(g)
		}
		if e.observing {
			e.emitSelect(EvBlock, g, g.site, n, -1, chans)
		}
		e.blockStart(g, "blocked in select at "+sitePos(site))
		chosen = block()
		e.comeBack(g)
		if e.observing {
			e.emitSelect(EvWake, g, g.site, n, max(chosen, -1), chans)
		}
		if masked {
			e.doneMasked(g)
		}
		if chosen != kicked {
			return chosen
		}
	}
}

// trySelect attempts the cases of a select without blocking, in the order
// the strategy picks.
func (e *execution) trySelect(g *G, site, n int, try func(int) bool, chans func(int) (uintptr, bool)) (int, bool) {
	start := e.pick(n)
	for j := 0; j < n; j++ {
		i := (start + j) % n
		if try(i) {
			if e.observing { // the case taken is part of the happens-before graph
				e.emitSelect(EvChan, g, site, n, i, chans)
			}
			if p, ok := e.strategy.(picker); ok && n > 1 {
				p.Picked(i, n)
			}
			e.noteWake()
			return i, true
		}
	}
	return -1, false
}

// picker is a strategy that learns which case a select took (exhaustive
// search: which other starts can take another).
type picker interface{ Picked(taken, n int) }

// pick asks the strategy for a value in [0, n) and records it for replay.
func (e *execution) pick(n int) int {
	if n <= 1 {
		return 0
	}
	d := &e.dec
	*d = Decision{Step: e.step, Seq: e.nextSeq(), Cur: e.holder, CurRuns: true, Choices: e.enabledSet(), Access: e.access}
	v := e.strategy.Pick(d, n)
	e.rec.pick(d.Seq, v)
	return v
}

// syncPoint is a plain scheduling point (atomics, sync.Map, len/cap of a
// channel). Atomics and sync.Map operations are sequentially consistent
// synchronisation for the event stream.
func syncPoint(site int) {
	if pointInBatch(site) { // tally_sync.go
		return
	}
	if e, g := self(); e != nil {
		e.point(g, site)
		if k := siteKind(site); k == KindAtomic || k == KindAtomicLoad {
			e.note(EvAtomic, g, site, 0)
		}
	}
}

// atomicPoint is syncPoint for a sync/atomic operation on the memory at p
// (nil: unknown), which its event carries.
func atomicPoint(site int, p unsafe.Pointer) {
	if e, g := self(); e != nil {
		e.point(g, site)
		e.note(EvAtomic, g, site, objOf(p))
	}
}

// closeOp is the scheduling point of close(ch).
func closeOp(site int, ch unsafe.Pointer) {
	if e, g := self(); e != nil {
		e.point(g, site)
		e.note(EvChan, g, site, objOf(ch))
		e.noteWake()
		e.kickIfOutside(ch)
	}
}

// access is the scheduling point of a memory access to a tracked site;
// v is the value a plain store writes (nil for other accesses): during a
// livelock window it tells whether the store changes memory. The token
// holder's access under the fast bound costs its bookkeeping alone; any
// other goes through memPoint. The fast path is memFast's body, copied:
// memFast is too large to be inlined, and its call was ~0.7 of the ~7 ns
// of such an access (BenchmarkActivePoint); keep the two in step (the
// tests verify both, verifyFast).
func access(site int, p, v unsafe.Pointer, write bool, size uintptr) {
	// With the tally on, tally is negative here (tally.go). Only the holder resets it: a
	// goroutine that does not hold the token leaves its decrement, which
	// the holder's next reset drops (an undo could land after that reset
	// and grant the holder an access it never counts).
	e := current.Load()
	if e == nil {
		return
	}
	if getg() != e.curGP.Load() {
		// Not the token holder: it runs natively (self's bookkeeping),
		// unless it comes back from code gopct does not instrument.
		if back, _ := self(); back == nil {
			return
		}
	}
	if tallyGranted != 0 {
		inWindow := e.live != nil
		e.closeTally() // the batch is exhausted
		if verifyFast {
			e.checkTally(inWindow)
		}
	} else if tallyOn {
		tally = 0 // no batch: drop the decrements
	}
	step := e.step + 1
	if step >= e.fastTo || uint(site) >= uint(len(memWords)) || e.aborted.Load() {
		e.memPoint(site, p, v, write, size)
		return
	}
	w := memWords[site]
	if w == 0 {
		e.memPoint(site, p, v, write, size)
		return
	}
	if verifyFast {
		e.checkFast(site)
	}
	g := e.holder
	g.site, g.lastMem, g.batched = site, site, false
	e.step = step
	mem := isMemory(SiteKind(w)) // w's low byte is the site's kind
	if step <= maxTrailSteps {
		e.fp = (e.fp ^ uint64(g.id)<<40 ^ w) * fpPrime
		e.rec.step(g.id, site)
	} else if !mem {
		e.foldStep(g.id, site, SiteKind(w)) // past the trail, as stepAt folds it (tally.go)
	}
	if uint(site) < uint(len(e.hits)) {
		e.hits[site]++
	}
	e.seq++
	if tallyOn && step >= maxTrailSteps && mem && e.tallyState != tallyUnusable {
		e.maybeOpenTally(step)
	}
}

// memPoint is the holder's scheduling point at a memory access outside
// the fast bound.
func (e *execution) memPoint(site int, p, v unsafe.Pointer, write bool, size uintptr) {
	if trackedObjs != nil && untracked(uintptr(p)) {
		return
	}
	g := e.holder
	if profiling {
		prof.observe(site, g, uintptr(p), write)
	}
	if e.memStaysSlow(g, site) {
		return
	}
	e.pointAt(g, Access{Site: site, Kind: siteKind(site), Addr: uintptr(p), Write: write, Size: size})
	if e.observing {
		e.emitOp(memKind(write), g.id, site, uintptr(p), v != nil && e.live != nil && sameValue(p, v, size))
	}
}

func memKind(write bool) EventKind {
	if write {
		return EvWrite
	}
	return EvRead
}
