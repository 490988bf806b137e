package pct

import (
	"slices"
	"unsafe"
)

// Maps are checked the way the Go runtime checks them: a write marks the map
// as being written across a scheduling point, and any other access to the
// map during that window is the runtime's fatal error ("concurrent map
// writes" and friends). The process does not die: the scheduler reports the
// fatal error with its schedule.

type mapModel struct{ writer *G }

func mapID[M any](m M) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&m)) }

func (e *execution) mapModel(id unsafe.Pointer) *mapModel { return e.maps.getOrNew(id) }

// mapAccess is the scheduling point of a map operation on a tracked site;
// it returns nil when the caller runs natively.
func mapAccess(site int, id unsafe.Pointer, write bool) (*execution, *G) {
	if !memoryOn(site) || id == nil {
		return nil, nil
	}
	e, g := self()
	if e == nil || trackedObjs != nil && untracked(uintptr(id)) {
		return nil, nil
	}
	if profiling {
		prof.observe(site, g, uintptr(id), write)
	}
	if !e.memStays(g, site) {
		e.pointAt(g, Access{Site: site, Kind: siteKind(site), Addr: uintptr(id), Write: write})
	} else if tallyOn && e.step >= maxTrailSteps && e.tallyState != tallyUnusable {
		// A map operation continues the streak (tally_sync.go); a read
		// may open the batch, a write ends in the runtime (mapWriteEnd).
		if write {
			e.streak++
		} else {
			e.maybeOpenTally(e.step)
		}
	}
	if e.observing {
		e.emitOp(memKind(write), g.id, site, uintptr(id), false)
	}
	return e, g
}

func mapRead(site int, id unsafe.Pointer) {
	e, g := mapAccess(site, id, false)
	if e == nil {
		return
	}
	if len(e.inWrite) == 0 {
		return // no write in progress: no model to look up
	}
	if mm := e.maps.get(id); mm != nil && mm.writer != nil && mm.writer != g {
		e.fatal(site, "concurrent map read and map write")
	}
}

// mapWriteBegin marks the write of a map at a tracked site and returns
// true; it returns false when the site is off or the caller runs natively:
// there is no mark for mapWriteEnd to clear, and the write need not call it
// (at v=0 a sharded set's 10^6 inserts asked for the goroutine for nothing).
func mapWriteBegin(site int, id unsafe.Pointer) bool {
	e, g := mapAccess(site, id, true)
	if e == nil {
		return false
	}
	mm := e.mapModel(id)
	if mm.writer != nil && mm.writer != g {
		e.fatal(site, "concurrent map writes")
	}
	if mm.writer == nil {
		e.inWrite = append(e.inWrite, id)
	}
	mm.writer, g.writing = g, mm
	if !e.memStays(g, site) {
		e.point(g, site) // the write is in progress: another goroutine may run
	}
	if mm.writer != g {
		e.fatal(site, "concurrent map writes")
	}
	// The write takes effect now, at the end of its window: an event, so
	// that "inside the window" and "after it" are different states for
	// observers that hash the execution's history.
	if e.observing {
		e.emitOp(EvWrite, g.id, site, uintptr(id), false)
	}
	return true
}

// mapWriteEnd ends a write's window; it returns the execution (nil: the
// caller runs natively). The window is g's last begun write (a write's
// operands are evaluated before it begins, so no other map operation of
// g comes between).
func mapWriteEnd(id unsafe.Pointer) *execution {
	e, g := self()
	if e == nil || id == nil {
		return nil
	}
	if mm := g.writing; mm != nil {
		if mm.writer == g {
			mm.writer = nil
			e.endWrite(id)
		}
		g.writing = nil
	}
	return e
}

// endWrite removes map id from the writes in progress.
func (e *execution) endWrite(id unsafe.Pointer) {
	if n := len(e.inWrite) - 1; n >= 0 && e.inWrite[n] == id {
		e.inWrite = e.inWrite[:n] // the write begun last: nearly always
		return
	}
	if i := slices.Index(e.inWrite, id); i >= 0 {
		e.inWrite = slices.Delete(e.inWrite, i, i+1)
	}
}
