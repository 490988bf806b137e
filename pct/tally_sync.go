package pct

import (
	"sync"
	"unsafe"
)

// Synchronisation operations in tally batches (issue 11).
//
// Under the fast bound a Lock, an Unlock or an atomic operation of the
// token holder needs no decision either: PCT keeps the holder until its
// next change point, and PCTVB counts memory accesses only. Each still
// cost ~25 ns beyond the operation itself (the token test, stepAt, the
// mutex's model found in a hash table, the wake-up test of its waiters),
// and a sharded hash set under 10^6 operations makes 2.5 million of them:
// 2.6x its native CPU with no variable tracked.
//
// So a batch (tally.go) may also admit them (tallySync): a batch opens
// after tallyStreak steps in a row that stayed, memory or synchronisation,
// past the trail, and in the turns of a livelock window that has seen
// progress (a window's check at 2^20 steps watches 65,536 of them, 5% of a
// sharded set's execution). Inside it:
//   - Lock(m) that TryLock takes at once only counts, and pushes m on
//     tallyHeld (at most len(tallyHeld) deep): the model learns its writer
//     when the batch closes (closeSyncTally), before runtime code reads it.
//     A Lock that would wait enters the runtime, which closes the batch.
//   - Unlock(m) of the mutex on top of tallyHeld only counts and pops it:
//     the batch took the mutex free, and nobody ran since, so nobody waits
//     for it in the model. Any other Unlock enters the runtime.
//   - an atomic operation (AtomicAt, PointAt, and Point at a site of an
//     atomic kind: a method of an atomic type or of sync.Map) only counts:
//     the runtime does nothing else at them when nobody observes events
//     (note).
//   - an operation on a map at an active site only counts (tallyMaps: a
//     write's mark is only needed across a point that may switch, and no
//     other goroutine's write of that map is in progress).
//
// Their steps are counted as memory steps are; the strategy's per-site
// counts leave them out (tallySyncUsed), as PCTVB counts memory accesses
// alone. Past the trail the path fingerprint leaves their kinds out
// whether batched or not (foldStep), so that recording and replay, which
// never batches, agree (schedule format 7).

// tallySync says whether the open batch admits synchronisation
// operations; tallySyncUsed counts those it took; tallyStack is the token
// holder's stack bounds, which a Lock in the batch must run on (see
// onHolderStack).
var (
	tallySync     bool
	tallySyncUsed int
	tallyStack    = &noStack
)

// noStack is an empty range of stack addresses: no caller runs on it.
var noStack [2]uintptr

// tallyMaps says whether the open batch admits the operations of maps at
// active sites: at most one write of a map was in progress when it opened,
// by a goroutine preempted inside its window, and it is known which
// (tallyBusyMap: the operations of that map enter the runtime, which
// checks them against the write). Only runtime code marks a write, and the
// holder's entry closes the batch first.
var (
	tallyMaps    bool
	tallyBusyMap unsafe.Pointer
)

// tallyHeld are the mutexes the open batch locked and has not unlocked,
// innermost last.
var (
	tallyHeld  [8]*sync.Mutex
	tallyHeldN int
)

// syncInBatch takes a synchronisation step of the holder's open batch
// that needs nothing but counting, or says there is none.
func syncInBatch() bool {
	if tallyOn && tallySync && tally > 0 {
		tally--
		tallySyncUsed++
		return true
	}
	return false
}

// batchMayLock says whether a Lock whose caller's frame is at sp may only
// count, inside a batch, if TryLock takes its mutex at once (mutexLock
// calls TryLock, then lockedInBatch: this test inlines there, and Lock's
// fast path makes one call). Steps of a goroutine gopct does not manage,
// running while the holder's batch is open (Go preempted the holder:
// tally.go), are at worst counted as the holder's, which a replay may
// notice; but a mutex it took, recorded as the holder's, would make the
// holder wait in the model for itself, a deadlock report that might be
// false. So this one test of the fast path asks who runs (onHolderStack).
func batchMayLock(sp uintptr) bool {
	return tallyOn && tallySync && tally > 0 && tallyHeldN < len(tallyHeld) && onHolderStack(sp)
}

// lockedInBatch counts the Lock of m that batchMayLock allowed and TryLock
// took: the model learns its writer when the batch closes.
func lockedInBatch(m *sync.Mutex) {
	tally--
	tallySyncUsed++
	tallyHeld[tallyHeldN] = m
	tallyHeldN++
}

// onHolderStack says whether the caller runs on the token holder's stack,
// that is, is the holder: goroutine stacks never overlap. It reads the
// bounds in the holder's runtime descriptor, which the runtime updates when
// the stack moves to grow, so that memory of a stack the holder left, given
// to another goroutine, is not mistaken for the holder's. An address of the
// caller's frame and two loads: the call of getg that it replaces was 5% of
// a sharded set's CPU under PCTVB v=1 (issue 11, stop 34: 24.3 -> 23.0 ms
// per execution, bench/scripts/v1pair.py).
func onHolderStack(sp uintptr) bool {
	s := tallyStack
	return sp >= s[0] && sp < s[1]
}

// mapInBatch takes the n steps of an operation on the map id at an active
// site inside a batch (a read makes one, a write two: its access and the
// point inside its window, mapWriteBegin), or says it cannot. They are
// memory steps: the strategy counts them (closeTally). A nil map makes no
// step, as in mapAccess.
func mapInBatch(id unsafe.Pointer, n int) bool {
	if tallyOn && tallyMaps && tally >= n && id != nil && id != tallyBusyMap {
		tally -= n
		return true
	}
	return false
}

// heldInBatch says whether the open batch locked m last: Unlock(m) then
// only counts (Unlock has the rest of the fast path: one call from the
// user's code). The slot keeps its pointer until the batch closes (a store
// of a pointer costs a write barrier's test).
func heldInBatch(m *sync.Mutex) bool {
	if !tallyOn {
		return false
	}
	n := tallyHeldN - 1
	return n >= 0 && tallyHeld[n&(len(tallyHeld)-1)] == m && tally > 0
}

// syncBatchable says whether steps of kind k may be taken in a batch.
// Past the trail they are not folded into the path fingerprint.
func syncBatchable(k SiteKind) bool {
	return k == KindLock || k == KindUnlock || isAtomic(k)
}

func isAtomic(k SiteKind) bool { return k == KindAtomic || k == KindAtomicLoad }

// unhashedKinds has bit k set for the kinds whose steps past the trail are
// not hashed (foldStep): memory accesses and the synchronisation steps
// batches take. A mask, so that foldStep stays within the inliner's budget
// (stepAt calls it at every step).
const unhashedKinds = 1<<KindRead | 1<<KindWrite | 1<<KindMapRead | 1<<KindMapWrite |
	1<<KindLock | 1<<KindUnlock | 1<<KindAtomic | 1<<KindAtomicLoad

// pointInBatch is Point(site) inside a batch: an atomic operation only
// counts (Point also precedes operations of other kinds, the len of a
// channel, which take the runtime's path).
func pointInBatch(site int) bool {
	return tallyOn && tallySync && isAtomic(siteKind(site)) && syncInBatch()
}

// continueStreak counts a step that stayed in stepAt, a synchronisation
// step or a memory access the fast bound did not cover, in the streak of
// staying steps it continues (streak), and once the streak is long enough
// sets the fast bound and opens a batch, as memStaysSlow does. So the
// step that the 1024-step bound sends through stepAt does not restart the
// streak: the batch after it opens at the next step. The operation that
// follows the step may still wait or wake somebody: setState then closes
// the batch.
func (e *execution) continueStreak(streak int) {
	if e.streak = streak + 1; e.streak < tallyStreak {
		return
	}
	step := e.step
	if profiling || trackedObjs != nil || !e.staysAt(step) {
		return
	}
	e.fastTo = min(e.stayStep, e.nextCheck, (step|1023)+1)
	e.openTally(step)
}

// grantSync lets the batch just opened take synchronisation operations,
// unless operations of unmanaged goroutines wait to be applied to the
// models (external.go), and map operations, unless two goroutines are
// inside writes of maps.
func (e *execution) grantSync() {
	tallyBusyMap = nil // closeSyncTally clears it only after a batch that took synchronisation
	tallyStack = &noStack
	if getg() == e.curGP.Load() { // batches open in the holder's own steps
		tallyStack = stackOfG()
	}
	tallySync = !e.extQueued.Load()
	tallyMaps = tallySync && len(e.inWrite) <= 1
	if len(e.inWrite) == 1 {
		tallyBusyMap = e.inWrite[0]
	}
}

// closeSyncTally ends the synchronisation part of the holder's batch: the
// mutexes it still holds get their writer in the model. It returns the
// number of synchronisation steps the batch took.
func (e *execution) closeSyncTally() int {
	used := tallySyncUsed
	g := e.tallyG
	for _, m := range tallyHeld[:tallyHeldN] {
		lm := e.mutexes.getOrNew(unsafe.Pointer(m))
		lm.writer = g
		g.locked, g.lockedModel = unsafe.Pointer(m), lm
	}
	resetSyncTally()
	return used
}

// resetSyncTally forgets the synchronisation part of a batch: the one that
// closes, or one of an earlier execution.
func resetSyncTally() {
	tallySync, tallyMaps, tallyBusyMap, tallySyncUsed = false, false, nil, 0
	clear(tallyHeld[:])
	tallyHeldN = 0
}
