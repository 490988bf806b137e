package pct

import (
	"sync"
	"unsafe"
)

// Synchronisation by goroutines gopct does not manage. A callback that code
// gopct does not instrument runs on a goroutine of its own (another
// module's time.AfterFunc, an injected `afterFunc = time.AfterFunc`, an
// httptest server's handler) may release what a managed goroutine waits
// for in a model: WaitGroup.Done, Mutex.Unlock, Cond.Signal. The operation
// runs natively (the caller is not the token holder), so the real object
// changes, and the model must learn it too, or the waiter stays disabled
// and gopct reports a deadlock that no real run shows (a review case:
// `afterFunc(10ms, wg.Done)` then `wg.Wait()`).
//
// The unmanaged goroutine cannot touch the models, which belong to the
// token holder: it queues the operation (under e.mu), and whoever decides
// next applies the queue in merge, as it merges goroutines back from real
// operations. If nobody holds the token (every managed goroutine waits, and
// the fake clock moved because of a timer gopct never saw), the operation
// starts a decision itself, as a goroutine coming back from a real
// operation does (comeBack), on a new goroutine of the bubble: the
// unmanaged one goes on at once, and the decision waits (synctest.Wait)
// until it has blocked or ended, so the merge sees all it did.

// extKind is the kind of a queued operation.
type extKind uint8

const (
	extUnlock    extKind = iota // Mutex.Unlock or RWMutex.Unlock
	extRUnlock                  // RWMutex.RUnlock
	extWGAdd                    // WaitGroup.Add(delta), Done
	extSignal                   // Cond.Signal
	extBroadcast                // Cond.Broadcast
)

// extOp is a synchronisation operation an unmanaged goroutine ran.
type extOp struct {
	kind  extKind
	obj   unsafe.Pointer // the mutex, RWMutex, WaitGroup or Cond
	delta int            // extWGAdd
}

// external queues op, run by an unmanaged goroutine, for the execution in
// progress (if any), and starts a decision when nobody holds the token.
func external(op extOp) {
	e := current.Load()
	if e == nil || e.aborted.Load() {
		return
	}
	e.mu.Lock()
	e.ext = append(e.ext, op)
	in := inBubble(e)
	if !in {
		e.outsider.Store(true)
	}
	kick := e.idle && !e.deciding && in
	if kick {
		e.deciding = true
	}
	e.mu.Unlock()
	if kick {
		go e.decideFromIdle(nil) // a goroutine of the bubble, as clockTick's
	}
}

// inBubble says whether the calling goroutine belongs to e's bubble: only
// then may it start a goroutine that decides (synctest.Wait panics
// outside). A goroutine started at init is outside; its operations wait in
// the queue for the next decision. The test: a non-blocking receive on a
// channel made in the bubble panics outside it.
func inBubble(e *execution) (in bool) {
	if e.abortCh == nil {
		return false
	}
	defer func() {
		if recover() != nil {
			in = false
		}
	}()
	select {
	case <-e.abortCh:
	default:
	}
	return true
}

// takeExternal returns and clears the queued operations.
func (e *execution) takeExternal() []extOp {
	e.mu.Lock()
	ops := e.ext
	e.ext = nil
	e.mu.Unlock()
	return ops
}

// applyExternal makes the models see operations that unmanaged goroutines
// ran: the real objects have changed already. It runs in the deciding
// goroutine, which owns the models. Objects no model has seen need
// nothing, except a WaitGroup, whose model starts here as a managed
// goroutine's Add would start it (from zero).
func (e *execution) applyExternal(ops []extOp) {
	for _, op := range ops {
		switch op.kind {
		case extUnlock:
			e.externalUnlock(e.mutexes.get(op.obj))
			e.externalUnlock(e.rwMutexes.get(op.obj))
		case extRUnlock:
			if lm := e.rwMutexes.get(op.obj); lm != nil {
				lm.dropReader()
				e.wakeAll(&lm.waiters)
			}
		case extWGAdd:
			m := e.wgModel((*sync.WaitGroup)(op.obj))
			m.count = max(m.count+op.delta, 0)
			if m.count == 0 {
				e.wakeAll(&m.waiters)
			}
		case extSignal, extBroadcast:
			if m, ok := e.models[(*sync.Cond)(op.obj)].(*condModel); ok {
				e.notifyWaiters(m, op.kind == extBroadcast)
			}
		}
	}
}

// externalUnlock releases a lock an unmanaged goroutine unlocked: whoever
// the model thought held it (a lock taken by a managed goroutine may be
// released by another, as Go allows), and wakes its waiters, who try again.
func (e *execution) externalUnlock(lm *lockModel) {
	if lm == nil {
		return
	}
	lm.writer = nil
	e.wakeAll(&lm.waiters)
}

// dropReader forgets one read lock (an unmanaged RUnlock: whose is not
// known; the lowest goroutine id's, so that runs agree).
func (lm *lockModel) dropReader() {
	if lm.nreaders == 0 {
		return
	}
	lm.nreaders--
	var low *G
	for g := range lm.readers {
		if low == nil || g.id < low.id {
			low = g
		}
	}
	if low != nil {
		if lm.readers[low]--; lm.readers[low] <= 0 {
			delete(lm.readers, low)
		}
	}
}
