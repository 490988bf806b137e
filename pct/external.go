package pct

import (
	"bytes"
	"runtime"
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
// operation does (comeBack), on a new goroutine of the bubble
// (decideForOutside). The token holder applies the queue before each of
// its own operations on a synchronisation object, so that the models see
// the operations in the order they ran.

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
// A repeat of the last queued operation on the same object adds nothing
// (an Unlock is checked against the real mutex when applied) or adds to
// its delta (a WaitGroup), so that a goroutine that locks and unlocks a
// million times while the token is held queues one entry.
func external(op extOp) {
	e := current.Load()
	if e == nil || e.aborted.Load() {
		return
	}
	e.mu.Lock()
	if n := len(e.ext); n > 0 && e.ext[n-1].kind == op.kind && e.ext[n-1].obj == op.obj {
		e.ext[n-1].delta += op.delta
	} else {
		e.ext = append(e.ext, op)
	}
	e.extQueued.Store(true)
	kick := e.idle && !e.deciding && e.mayDecide()
	if kick {
		e.deciding = true
	}
	e.mu.Unlock()
	if kick {
		go e.decideForOutside()
	}
}

// mayDecide says whether the calling unmanaged goroutine may start a
// decision: only a goroutine of the execution's bubble may (a timer
// callback of another module). One outside it (started at init) must not
// touch the bubble's channels and timers, and must not claim the decision
// either: while it held e.deciding, the bubble's own clock tick found the
// decision taken and returned, no timer was left, and synctest reported
// every goroutine blocked, a false deadlock when its goroutine started
// late on a loaded machine (sweep_unmanaged_release). Its operation waits
// in the queue for the next decision, and the execution stops trusting
// that stuck goroutines stay stuck (outsider). Called under e.mu, only
// when nobody holds the token.
func (e *execution) mayDecide() bool {
	if e.bubble != "" && currentBubble() == e.bubble {
		return true
	}
	e.outsider.Store(true)
	return false
}

// decideForOutside is the decision an unmanaged goroutine's operation
// starts when nobody holds the token, on a goroutine of its own. It does
// not wait (synctest.Wait) for the goroutines of the bubble to block, as a
// decision after time passed does: the unmanaged goroutine may go on to
// block on a real mutex that a managed goroutine waiting for its turn
// holds, which synctest does not count as blocked, and the wait would
// never end (a review case; Go runs the new goroutine once the unmanaged
// one blocks or ends, on one core). The caller is in the bubble
// (mayDecide), so the new goroutine is too.
func (e *execution) decideForOutside() { e.decideIdle(nil) }

// currentBubble names the synctest bubble of the calling goroutine ("" if
// none), from the header of its stack trace ("goroutine 7 [running,
// synctest bubble 3]:"): no other API tells, and a receive on a channel of
// the bubble from outside it is a fatal error of the runtime, not a panic.
// A few microseconds: called when an unmanaged goroutine starts a decision
// and once per execution.
func currentBubble() string {
	var buf [128]byte
	head := buf[:runtime.Stack(buf[:], false)]
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	const mark = "synctest bubble "
	i := bytes.Index(head, []byte(mark))
	if i < 0 {
		return ""
	}
	id := head[i+len(mark):]
	if j := bytes.IndexAny(id, ",]"); j >= 0 {
		id = id[:j]
	}
	return string(id)
}

// applyQueued applies the queued operations of unmanaged goroutines
// before the token holder's own operation on a synchronisation object,
// so that the models see them in the order they ran (an unmanaged
// wg.Add(1) before the holder's wg.Done). One atomic load when nothing
// is queued.
func (e *execution) applyQueued() {
	if e.extQueued.Load() {
		e.applyTaken()
	}
}

// applyTaken applies and clears the queue: applyQueued's rare path, kept
// apart so that applyQueued is inlined into every Lock and Unlock.
func (e *execution) applyTaken() { e.applyExternal(e.takeExternal()) }

// takeExternal returns and clears the queued operations.
func (e *execution) takeExternal() []extOp {
	e.mu.Lock()
	ops := e.ext
	e.ext = nil
	e.extQueued.Store(false)
	e.mu.Unlock()
	return ops
}

// applyExternal makes the models see operations that unmanaged goroutines
// ran: the real objects have changed already. It runs in the deciding
// goroutine, which owns the models. An unlock is applied only if the real
// lock is free now: the unmanaged goroutine's own Lock was not queued (it
// did not wait in a model), and between its Unlock and this a managed
// goroutine may have taken the lock for real and in the model, which
// must stay (a review case: "unlock of unlocked mutex" reported on a
// correct program). A lock that is still held will be unlocked again,
// and that unlock queued.
func (e *execution) applyExternal(ops []extOp) {
	for _, op := range ops {
		switch op.kind {
		case extUnlock:
			if lm := e.mutexes.get(op.obj); lm != nil && lm.writer != nil && free((*sync.Mutex)(op.obj)) {
				e.releaseOutside(lm)
			}
			if lm := e.rwMutexes.get(op.obj); lm != nil && lm.writer != nil && free((*sync.RWMutex)(op.obj)) {
				e.releaseOutside(lm)
			}
		case extRUnlock:
			if lm := e.rwMutexes.get(op.obj); lm != nil && lm.nreaders > 0 && free((*sync.RWMutex)(op.obj)) {
				clear(lm.readers) // nobody holds it for real
				lm.nreaders = 0
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

// free says whether nobody holds l for real (by taking it and letting go).
func free(l interface {
	sync.Locker
	TryLock() bool
}) bool {
	if !l.TryLock() {
		return false
	}
	l.Unlock()
	return true
}

// releaseOutside releases a lock an unmanaged goroutine unlocked: whoever
// the model thought held it (Go lets a lock taken by one goroutine be
// released by another), and wakes its waiters, who try again.
func (e *execution) releaseOutside(lm *lockModel) {
	lm.writer = nil
	e.wakeAll(&lm.waiters)
}
