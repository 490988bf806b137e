package pct

import "unsafe"

// Maps are checked the way the Go runtime checks them: a write marks the map
// as being written across a scheduling point, and any other access to the
// map during that window is the runtime's fatal error ("concurrent map
// writes" and friends). The process does not die: the scheduler reports the
// fatal error with its schedule.

type mapModel struct{ writer *G }

func mapID[M any](m M) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&m)) }

func (e *execution) mapModel(id unsafe.Pointer) *mapModel {
	if mm, ok := e.models[id].(*mapModel); ok {
		return mm
	}
	mm := &mapModel{}
	e.models[id] = mm
	return mm
}

// mapAccess is the scheduling point of a map operation on a tracked site;
// it returns nil when the caller runs natively.
func mapAccess(site int, id unsafe.Pointer, write bool) (*execution, *G) {
	if !memoryOn(site) || id == nil {
		return nil, nil
	}
	e, g := self()
	if e == nil {
		return nil, nil
	}
	if profiling {
		prof.observe(site, g, uintptr(id), write)
	}
	e.pointAt(g, Access{Site: site, Kind: siteKind(site), Addr: uintptr(id), Write: write})
	if e.observing {
		e.emit(Event{Kind: memKind(write), G: g.id, Site: site, Op: siteKind(site), Obj: uintptr(id)})
	}
	return e, g
}

func mapRead(site int, id unsafe.Pointer) {
	e, g := mapAccess(site, id, false)
	if e == nil {
		return
	}
	if w := e.mapModel(id).writer; w != nil && w != g {
		e.fatal(site, "concurrent map read and map write")
	}
}

// mapWriteBegin opens the window of a map write at site and says whether
// it did: an untracked write (inactive site, no execution) has no window
// to close, and its caller skips mapWriteEnd, whose model lookup was 4% of
// a worker's CPU on a map-heavy program (bench/overhead HashSet, v=0).
func mapWriteBegin(site int, id unsafe.Pointer) bool {
	e, g := mapAccess(site, id, true)
	if e == nil {
		return false
	}
	mm := e.mapModel(id)
	if mm.writer != nil && mm.writer != g {
		e.fatal(site, "concurrent map writes")
	}
	mm.writer = g
	e.point(g, site) // the write is in progress: another goroutine may run
	if mm.writer != g {
		e.fatal(site, "concurrent map writes")
	}
	// The write takes effect now, at the end of its window: an event, so
	// that "inside the window" and "after it" are different states for
	// observers that hash the execution's history.
	if e.observing {
		e.emit(Event{Kind: EvWrite, G: g.id, Site: site, Op: siteKind(site), Obj: uintptr(id)})
	}
	return true
}

func mapWriteEnd(id unsafe.Pointer) {
	e, g := self()
	if e == nil || id == nil {
		return
	}
	if mm, ok := e.models[id].(*mapModel); ok && mm.writer == g {
		mm.writer = nil
	}
}
