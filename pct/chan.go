package pct

import (
	"sync"
	"unsafe"
)

// Channel operations run for real: the scheduler first tries them without
// blocking; only if that fails does the goroutine block in the real
// operation, after handing the token on. A successful operation may have
// woken a goroutine blocked in a real operation, so the next scheduling
// point settles first.

func chanOp(site int, ch unsafe.Pointer, try func() bool, block func()) {
	e, g := self()
	if e == nil {
		if !try() {
			block()
		}
		return
	}
	e.point(g, site)
	e.noteForeign(ch)
	if try() {
		e.noteWake()
		return
	}
	e.blockIn(g, "blocked at "+siteOp(site), block)
}

// outsideChans are the channels made by instrumented code outside any
// execution (package variables, init).
var (
	outsideMu    sync.Mutex
	outsideChans = map[unsafe.Pointer]bool{}
)

func noteOutsideChan(c unsafe.Pointer) {
	outsideMu.Lock()
	outsideChans[c] = true
	outsideMu.Unlock()
}

// noteForeign remembers that the execution used a channel made outside it.
func (e *execution) noteForeign(c unsafe.Pointer) {
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
	}
}

func markWoken() {
	if e, _ := self(); e != nil {
		e.noteWake()
	}
}

func selectOp(site, n int, hasDefault bool, try func(int) bool, block func() int) int {
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
	e.point(g, site)
	start := e.pick(n)
	for j := 0; j < n; j++ {
		i := (start + j) % n
		if try(i) {
			e.noteWake()
			return i
		}
	}
	if hasDefault {
		return -1
	}
	chosen := -1
	e.blockIn(g, "blocked in select at "+sitePos(site), func() { chosen = block() })
	return chosen
}

// pick asks the strategy for a value in [0, n) and records it for replay.
func (e *execution) pick(n int) int {
	if n <= 1 {
		return 0
	}
	at := e.moment()
	v := e.strategy.Pick(at, n)
	e.rec.pick(at.Seq, v)
	return v
}

// syncPoint is a plain scheduling point (atomics, unmodelled operations).
func syncPoint(site int) {
	if e, g := self(); e != nil {
		e.point(g, site)
	}
}

// access is the scheduling point of a memory access to a tracked site.
func access(site int, p unsafe.Pointer, write bool) {
	if e, g := self(); e != nil {
		if profiling {
			prof.observe(site, g, uintptr(p), write)
		}
		e.point(g, site)
	}
}
