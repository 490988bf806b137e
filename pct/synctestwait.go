package pct

// syncWait blocks g until no other goroutine of the execution can run:
// synctest.Wait's contract ("every other goroutine of the bubble is durably
// blocked"), decided by the scheduler, which knows who can run. The clock
// does not move for it: waiters are released before time may pass.
func (e *execution) syncWait(g *G, site int) {
	g.syncWaiting = true
	e.syncWaiters++
	for g.syncWaiting {
		e.disable(g, "in synctest.Wait at "+sitePos(site))
	}
}

// releaseSyncWaiters enables the goroutines in synctest.Wait once nobody
// else can run; it reports whether it released any.
func (e *execution) releaseSyncWaiters() bool {
	if e.syncWaiters == 0 {
		return false
	}
	for _, g := range e.gs {
		if g.syncWaiting {
			g.syncWaiting = false
			e.enable(g)
		}
	}
	e.syncWaiters = 0
	return true
}
