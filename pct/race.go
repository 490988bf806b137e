package pct

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
)

// raceDetector finds data races inside a controlled execution: two accesses
// to the same memory by different goroutines, at least one a write,
// unordered by the happens-before order of the program's synchronisation.
// Go's -race cannot see them here: the scheduler's token handoffs are
// synchronisation, so to it every access is ordered. This detector is an
// observer of the engine's events, which never include those handoffs.
//
// Happens-before is tracked with vector clocks (one per goroutine, one per
// sync object; Lamport/Mattern), and accesses with FastTrack-style epochs
// (Flanagan & Freund, PLDI'09): the last write is one epoch, the reads since
// are one epoch per reading goroutine. Memory is tracked per address (so per
// field and per element); a map is one location.
//
// The overriding rule is no false report. Where the events do not tell an
// edge precisely, the detector adds more happens-before, never less: a
// channel is a lock that every operation acquires and releases (but a
// close, which the memory model orders after nothing, only releases; a
// select is the operation of the case it takes); an atomic or sync.Map
// operation whose address gopct does not know synchronises with every
// other (atomic); and where the other side may be code gopct does not
// see, the goroutine joins every goroutine's clock: a receive that no
// instrumented send or close accounts for (a context's Done channel closed
// by a cancel function, a timer's channel), a select woken by a channel
// gopct left out of it, and a callback started by unmanaged code
// (AfterFunc). Extra edges can hide a race, never invent one.
type raceDetector struct {
	vc    []vclock               // per goroutine
	syncs map[uintptr]*syncClock // per sync object
	// lastObj is the sync object of the last acquire or release and
	// lastSync its state: an Unlock finds its Lock's without a lookup.
	lastObj  uintptr
	lastSync *syncClock
	blocked  map[int]blockMark // goroutine -> the object it blocked on
	anyChan  vclock            // channel operations whose channel is unknown
	atomics  vclock            // sync/atomic and sync.Map operations
	// anyAtomic: the atomics whose address is unknown; atomicAt: those
	// on each known address (atomic).
	anyAtomic vclock
	atomicAt  map[uintptr]*vclock
	relSeq    int // releases of any sync object so far
	// nativeClock joins the clocks of goroutines when they blocked inside
	// code gopct does not instrument, nativeSeq counts those waits, and
	// nativeSeen[g] is the count g's clock has joined (native).
	nativeClock vclock
	nativeSeq   int
	nativeSeen  []int
	shadow      map[uintptr]shadow // per memory address not 8-byte aligned
	pages       shadowPages        // per 8-byte aligned memory address
	created     []int              // goroutine -> site of its creation (-1: the test)
	adopted     map[int]bool       // callbacks started by unmanaged code, until their first event
	sends       map[uintptr]int    // per channel: instrumented sends (done or blocked)
	recvs       map[uintptr]int    // per channel: instrumented receives done
	closed      map[uintptr]bool   // per channel: closed by instrumented code
	race        *Failure
	// The race's earlier access and address (racestack.go reruns the
	// execution to capture its stack), and in that rerun, what to capture.
	prev      epoch
	prevWrite bool
	raceAddr  uintptr
	pair      [2]int // the race's sites, in order
	capture   *raceCapture
	gcStart   uint64 // garbage collections completed before the execution
}

// syncClock is a sync object's happens-before state: the join of the
// clocks of its releases, and when the last was. One map entry per object,
// changed in place (issue 11: two maps, each read and written at every
// release, were ~14 ns of a Lock or Unlock with race detection on).
type syncClock struct {
	clock   vclock
	lastRel int    // relSeq at the last release (0: none)
	readers vclock // an RWMutex's RUnlocks (lockRelease)
}

// syncOf is the state of sync object obj, made on first use (an object
// never released has an empty clock and no releases, as a missing entry
// had).
func (r *raceDetector) syncOf(obj uintptr) *syncClock {
	if obj == r.lastObj && r.lastSync != nil {
		return r.lastSync
	}
	s := r.syncs[obj]
	if s == nil {
		s = &syncClock{}
		r.syncs[obj] = s
	}
	r.lastObj, r.lastSync = obj, s
	return s
}

type blockMark struct {
	obj uintptr
	at  int // relSeq, with the block's own releases
}

// epoch is a goroutine's clock value at an access, with the access's site,
// in 32 bits each (goroutines, sites and a goroutine's releases in one
// execution stay far below 2^31): a shadow is 32 bytes, not 72.
type epoch struct {
	g, c, site int32
}

func newEpoch(g, c, site int) epoch { return epoch{int32(g), int32(c), int32(site)} }

// before says whether the access e happened before the current point of
// the goroutine whose clock is c.
func (e epoch) before(c vclock) bool { return int(e.c) <= c.get(int(e.g)) }

// shadow is an address's access history: the last write, and the reads
// since, one per goroutine (the first inline: most locations are read by
// one goroutine between writes, and the state allocates nothing per access
// then).
type shadow struct {
	write epoch    // last write (c == 0: none)
	read  epoch    // a read since the last write (c == 0: none)
	more  *[]epoch // reads by other goroutines (nil or empty: none)
}

// vclock is a vector clock indexed by goroutine id.
type vclock []int

func (v vclock) get(g int) int {
	if g < len(v) {
		return v[g]
	}
	return 0
}

// join sets v to the pointwise maximum of v and w.
func (v *vclock) join(w vclock) {
	for len(*v) < len(w) {
		*v = append(*v, 0)
	}
	for i, c := range w {
		if c > (*v)[i] {
			(*v)[i] = c
		}
	}
}

func newRaceDetector() *raceDetector {
	return &raceDetector{syncs: map[uintptr]*syncClock{}, blocked: map[int]blockMark{},
		shadow: map[uintptr]shadow{}, pages: shadowPages{m: map[uintptr]*shadowRegion{}}, adopted: map[int]bool{}, sends: map[uintptr]int{}, recvs: map[uintptr]int{},
		closed: map[uintptr]bool{}, atomicAt: map[uintptr]*vclock{}}
}

func init() {
	RegisterObserver(func(cfg *Config) Observer {
		if cfg.Race {
			r := newRaceDetector()
			r.capture, r.gcStart = nextCapture, gcCycles()
			return r
		}
		return nil
	})
}

// clock returns goroutine g's vector clock, creating it.
func (r *raceDetector) clock(g int) *vclock {
	for len(r.vc) <= g {
		id := len(r.vc)
		c := make(vclock, id+1)
		c[id] = 1
		r.vc = append(r.vc, c)
		r.created = append(r.created, -1)
	}
	return &r.vc[g]
}

// tick advances g's own component: later accesses are distinguishable
// from those before a release.
func (r *raceDetector) tick(g int) {
	c := r.clock(g)
	(*c)[g]++
}

func (r *raceDetector) acquire(g int, obj uintptr) { r.clock(g).join(r.syncOf(obj).clock) }

// lockAcquire and lockRelease are the edges of locks, WaitGroups, Once
// and Cond, as go test -race draws them for an RWMutex: an RUnlock
// releases into the lock's readers' clock, which only the acquires other
// than RLock take (a Lock orders its writer after the readers before it),
// and an RLock acquires the clock of the other releases only (an Unlock
// orders the readers after the writer). So two readers are not ordered by
// the lock they share, and a write under RLock races with another
// reader's (testscript race_rwmutex). Everything other than RLock acquires
// both clocks, so whatever gopct does not know to be a writer's Lock (a
// Cond's wake, a lock through sync.Locker) is ordered after the readers.
func (r *raceDetector) lockAcquire(ev *Event) {
	s := r.syncOf(ev.Obj)
	c := r.clock(ev.G)
	c.join(s.clock)
	if ev.Op != KindRLock && len(s.readers) > 0 {
		c.join(s.readers)
	}
}

func (r *raceDetector) lockRelease(ev *Event) {
	if ev.Op != KindRUnlock {
		r.release(ev.G, ev.Obj)
		return
	}
	s := r.syncOf(ev.Obj)
	s.readers.join(*r.clock(ev.G))
	r.tick(ev.G)
}

func (r *raceDetector) release(g int, obj uintptr) {
	s := r.syncOf(obj)
	s.clock.join(*r.clock(g))
	r.relSeq++
	s.lastRel = r.relSeq
	r.tick(g)
}

// joinAll orders g after everything every goroutine has done. The join
// of every clock is each goroutine's own component, since no clock knows
// more of a goroutine than its own (only tick and spawn advance one, and
// only for itself): O(goroutines), where joining every clock was
// O(goroutines²) at every select that woke, which dominated tests that
// open and close hundreds of yamux sessions (go-yamux's
// TestStreamAfterShutdown).
func (r *raceDetector) joinAll(g int) {
	c := r.clock(g)
	for len(*c) < len(r.vc) {
		*c = append(*c, 0)
	}
	for k := range r.vc {
		if own := r.vc[k][k]; own > (*c)[k] {
			(*c)[k] = own
		}
	}
}

func (r *raceDetector) Observe(ev *Event) {
	if ev.G < 0 { // time passing: not synchronisation
		return
	}
	if r.nativeSeq != 0 {
		r.seeNative(ev.G)
	}
	if len(r.adopted) != 0 && r.adopted[ev.G] { // rare: skip the lookup
		delete(r.adopted, ev.G)
		r.joinAll(ev.G)
	}
	switch ev.Kind {
	case EvSpawn:
		r.spawn(ev)
	case EvAcquire:
		r.lockAcquire(ev)
	case EvRelease:
		r.lockRelease(ev)
	case EvChan:
		r.chanOp(ev)
	case EvAtomic:
		r.atomic(ev)
	case EvBlock:
		if ev.Other == nativeWait {
			r.native(ev.G, true)
			return
		}
		r.block(ev)
	case EvWake:
		if ev.Other == nativeWait {
			r.native(ev.G, false)
			return
		}
		r.wake(ev)
	case EvRead, EvWrite:
		r.access(ev)
	}
}

// atomic: sync/atomic operations (and sync.Map's) are sequentially
// consistent. One on a known address is ordered after every earlier one on
// that address, as under go test -race, and after every earlier one whose
// address gopct does not know (anyAtomic: a method called through a
// function value or deferred); one on an unknown address is ordered after
// every earlier atomic (atomics) and before every later one. So operations
// on two variables do not order their goroutines: before, one clock for all
// atomics made any goroutine that counted a statistic ordered after every
// other that had, and hid their races.
func (r *raceDetector) atomic(ev *Event) {
	c := r.clock(ev.G)
	if ev.Obj == 0 {
		c.join(r.atomics)
		r.anyAtomic.join(*c)
		r.atomics.join(*c)
		r.tick(ev.G)
		return
	}
	a := r.atomicAt[ev.Obj]
	if a == nil {
		a = &vclock{}
		r.atomicAt[ev.Obj] = a
	}
	c.join(*a)
	c.join(r.anyAtomic)
	a.join(*c)
	r.atomics.join(*c)
	// An atomic on a known address is also an access to it: unordered
	// with a plain access there, it is a race. Checked after the joins
	// and before the tick (whoever acquires the address later is after
	// it).
	r.access(ev)
	r.tick(ev.G)
}

func (r *raceDetector) spawn(ev *Event) {
	parent := r.clock(ev.G)
	child := r.clock(ev.Other)
	parent = r.clock(ev.G) // clock may have grown the slice
	child.join(*parent)
	(*child)[ev.Other]++
	r.created[ev.Other] = ev.Site
	if ev.Op == KindTimer {
		r.adopted[ev.Other] = true // started later by code gopct does not see
	}
	r.tick(ev.G)
}

// chanOp: a channel operation that completed at once, as a lock acquired
// and released, after everyone when the other side may be unseen. A close
// only releases: nothing is ordered before a close by the memory model (nor
// by go test -race: closechan only releases), and acquiring the channel
// ordered the closer after a receiver blocked on it, which hid the race
// between what each did around them (GoBench's istio8967 was found later).
func (r *raceDetector) chanOp(ev *Event) {
	g, obj, op := ev.G, ev.Obj, ev.Op
	if ev.Sel != nil && ev.Sel.Taken >= 0 {
		obj, op = r.caseTaken(ev.Sel) // a select's case, as the operation alone
	}
	if obj == 0 || r.unseenSender(obj, op) {
		r.joinAll(g)
	}
	if obj == 0 {
		r.anyChan.join(*r.clock(g))
		r.tick(g)
		return
	}
	if op != KindClose {
		r.acquire(g, obj)
	}
	r.release(g, obj)
	r.anyChan.join(r.syncOf(obj).clock)
}

// unseenSender accounts for a completed channel operation and says whether
// it is a receive that no instrumented send or close explains.
func (r *raceDetector) unseenSender(obj uintptr, op SiteKind) bool {
	switch op {
	case KindSend:
		r.sends[obj]++
	case KindClose:
		r.closed[obj] = true
	case KindRecv:
		r.recvs[obj]++
		return !r.closed[obj] && r.recvs[obj] > r.sends[obj]
	}
	return false
}

// caseTaken is the channel and operation of the case a select took.
func (r *raceDetector) caseTaken(sel *SelectCases) (uintptr, SiteKind) {
	if sel.Sends[sel.Taken] {
		return sel.Chans[sel.Taken], KindSend
	}
	return sel.Chans[sel.Taken], KindRecv
}

func (r *raceDetector) block(ev *Event) {
	if !blocksOnChannel(ev) {
		return // a model wait: the acquire that follows carries the edge
	}
	if ev.Sel != nil {
		r.blockSelect(ev.G, ev.Sel)
		return
	}
	if ev.Obj == 0 {
		r.anyChan.join(*r.clock(ev.G))
		r.tick(ev.G)
	} else {
		if ev.Op == KindSend {
			r.sends[ev.Obj]++ // its value will be delivered
		}
		r.release(ev.G, ev.Obj)
		r.anyChan.join(r.syncOf(ev.Obj).clock)
	}
	r.blocked[ev.G] = blockMark{ev.Obj, r.relSeq}
}

// blockSelect: a select blocks on each of its cases' channels, as the
// operation of each case alone would (block): whichever completes it
// (a receive that takes its send, a send that its receive takes) is
// ordered after what it did before. Its sends are not counted: only one
// will be delivered, so a receive that takes one is ordered after
// everyone (unseenSender), and the send is counted when it completes.
func (r *raceDetector) blockSelect(g int, sel *SelectCases) {
	for _, c := range sel.Chans {
		if c != 0 {
			r.release(g, c)
		}
	}
	r.tick(g)
	r.blocked[g] = blockMark{at: r.relSeq}
}

// wakeSelect: the select that g blocked in (mark m) took a case. Its
// channel's operation since the block, if instrumented code did one,
// accounts for it, as for the case's operation alone (wake); otherwise,
// or when a channel gopct left out of the select woke it, g is ordered
// after everyone.
func (r *raceDetector) wakeSelect(g int, sel *SelectCases, m blockMark) {
	if sel.Taken < 0 {
		r.joinAll(g)
		return
	}
	c, op := r.caseTaken(sel)
	if r.unseenSender(c, op) || r.syncOf(c).lastRel <= m.at {
		r.joinAll(g)
		return
	}
	r.acquire(g, c)
}

func (r *raceDetector) wake(ev *Event) {
	if !blocksOnChannel(ev) {
		return
	}
	m := r.blocked[ev.G]
	delete(r.blocked, ev.G)
	if ev.Sel != nil {
		r.wakeSelect(ev.G, ev.Sel, m)
		return
	}
	unseen := false
	if ev.Op == KindRecv {
		r.recvs[ev.Obj]++
		unseen = !r.closed[ev.Obj] && r.recvs[ev.Obj] > r.sends[ev.Obj]
	}
	switch {
	case ev.Obj == 0 || unseen:
		r.joinAll(ev.G) // a select, or a value or close gopct did not see
	case r.syncOf(ev.Obj).lastRel <= m.at:
		// Nothing instrumented released the channel since our own block:
		// something gopct does not see woke us (a cancel function
		// closing a Done channel). Order after everyone.
		r.joinAll(ev.G)
	default:
		r.acquire(ev.G, ev.Obj)
	}
}

// native orders across a goroutine's wait inside code gopct does not
// instrument (native.go): a Read of a net.Pipe or an io.Pipe that a Write
// of another goroutine completes, whose channels and mutex gopct does not
// see. The edge may go either way, and the other side need not have waited
// at all (the Write's data was there when the Read came), so when g blocks
// there everything it did before happens before whatever any goroutine does
// next, and when it comes back it is ordered after everything every
// goroutine has done. Before, a value set before a Write and read after
// the Read was a data race (sourcegraph/jsonrpc2's
// TestConn_DisconnectNotify; testscript native_handoff_race).
//
// The first is done lazily: g's clock goes into nativeClock, and each
// goroutine joins it at its next event (seeNative), so that the goroutines
// that have exited cost nothing.
func (r *raceDetector) native(g int, blocking bool) {
	if !blocking {
		delete(r.blocked, g)
		r.joinAll(g)
		return
	}
	r.nativeClock.join(*r.clock(g))
	r.nativeSeq++
	r.tick(g)
}

// seeNative joins nativeClock into g's clock once per wait that went into
// it.
func (r *raceDetector) seeNative(g int) {
	for len(r.nativeSeen) <= g {
		r.nativeSeen = append(r.nativeSeen, 0)
	}
	if r.nativeSeen[g] != r.nativeSeq {
		r.nativeSeen[g] = r.nativeSeq
		r.clock(g).join(r.nativeClock)
	}
}

// blocksOnChannel tells real blocking operations (channels, select) from
// model waits (mutex, WaitGroup, Once, Cond) and sleeps.
func blocksOnChannel(ev *Event) bool {
	switch ev.Op {
	case KindSend, KindRecv, KindSelect, KindClose:
		return true
	}
	return false
}

func (r *raceDetector) access(ev *Event) {
	if r.race != nil || onOwnStack(ev.Obj) {
		return // no other goroutine reaches the stack (ownstack_asm.go)
	}
	if r.capture != nil {
		r.capture.note(ev, r.clock(ev.G).get(ev.G))
	}
	if s := r.pages.slot(ev.Obj); s != nil {
		r.check(ev, s)
		return
	}
	s := r.shadow[ev.Obj]
	r.check(ev, &s)
	r.shadow[ev.Obj] = s
}

// check compares the access ev with the address's history s, reports a
// race or updates s.
func (r *raceDetector) check(ev *Event, s *shadow) {
	c := *r.clock(ev.G)
	me := newEpoch(ev.G, c[ev.G], ev.Site)
	write, atomic := isWrite(ev), ev.Kind == EvAtomic
	if w := s.write; w.c > 0 && w.g != me.g && !w.before(c) && !(atomic && atomicSite(w.site)) {
		r.report(w, true, me, write, ev.Obj)
		return
	}
	if !write {
		if s.read.g == me.g && s.read.c == me.c {
			return // same epoch: nothing new (FastTrack's fast path)
		}
		s.addRead(me)
		return
	}
	if s.write.g == me.g && s.write.c == me.c && s.read.c == 0 {
		return // a write in the same epoch, no read since
	}
	if rd := s.read; rd.c > 0 && rd.g != me.g && !rd.before(c) && !(atomic && atomicSite(rd.site)) {
		r.report(rd, false, me, true, ev.Obj)
		return
	}
	more := s.more
	if more != nil {
		for _, rd := range *more {
			if rd.g != me.g && !rd.before(c) && !(atomic && atomicSite(rd.site)) {
				r.report(rd, false, me, true, ev.Obj)
				return
			}
		}
		*more = (*more)[:0] // kept for the reads after this write
	}
	*s = shadow{write: me, more: more}
}

// isWrite says whether the access ev writes: a plain store, or an atomic
// operation other than a load.
func isWrite(ev *Event) bool {
	return ev.Kind == EvWrite || (ev.Kind == EvAtomic && ev.Op != KindAtomicLoad)
}

// atomicSite says whether site is a sync/atomic operation: two of them never
// race with each other.
func atomicSite(site int32) bool {
	k := siteKind(int(site))
	return k == KindAtomic || k == KindAtomicLoad
}

// shadowPages holds the shadow state of 8-byte aligned addresses (almost
// every tracked access: words, pointers, map headers) in pages of
// consecutive words, grouped into regions found through a map keyed by
// region, with a direct-mapped cache of recently used regions in front of
// it. Arrays and structs are walked address after address, often several
// at once (a merge reads two runs and writes a third), so most accesses skip
// the map lookup: with a cache of one page the three streams of a merge sort
// evicted each other, and with a cache of pages a pass over its 800 KB
// looked up every page again; the lookup was a third of the CPU with race
// detection on. Pages are allocated when first touched, so scattered words
// cost a page and their region's pointer table. Each slot is one address,
// so the state is as precise as per address; other addresses stay in the
// per-address map.
type shadowPages struct {
	m     map[uintptr]*shadowRegion
	cache [regionCacheSize]regionRef
}

type regionRef struct {
	key    uintptr
	region *shadowRegion
}

// pageWords is the number of words a page covers: small, so that pages of
// scattered addresses waste little (a page is pageWords shadows).
// regionPages is the number of pages of a region (1 KiB of memory: its
// table of pointers is 128 bytes). regionCacheSize, a power of two, is the
// number of regions cached (1 MiB of memory): consecutive regions go to
// consecutive entries, so a few streams of accesses rarely collide.
const (
	pageWords       = 8
	regionPages     = 16
	regionCacheSize = 1024
)

type (
	shadowPage   [pageWords]shadow
	shadowRegion [regionPages]*shadowPage
)

// slot returns the shadow state of addr, or nil when addr is not 8-byte
// aligned.
func (p *shadowPages) slot(addr uintptr) *shadow {
	if addr&7 != 0 {
		return nil
	}
	word := addr / 8
	key := word / (pageWords * regionPages)
	c := &p.cache[key%regionCacheSize]
	if c.region == nil || c.key != key {
		c.key, c.region = key, p.lookup(key)
	}
	pg := &c.region[word/pageWords%regionPages]
	if *pg == nil {
		*pg = new(shadowPage)
	}
	return &(*pg)[word%pageWords]
}

// lookup returns the region of key, creating it.
func (p *shadowPages) lookup(key uintptr) *shadowRegion {
	r := p.m[key]
	if r == nil {
		r = new(shadowRegion)
		p.m[key] = r
	}
	return r
}

// addRead records a read, replacing the reader's earlier one.
func (s *shadow) addRead(me epoch) {
	if s.read.c == 0 || s.read.g == me.g {
		s.read = me
		return
	}
	if s.more == nil {
		s.more = new([]epoch)
	}
	for i, rd := range *s.more {
		if rd.g == me.g {
			(*s.more)[i] = me
			return
		}
	}
	*s.more = append(*s.more, me)
}

// report records the first race: an earlier access and the current one,
// to the memory at addr.
func (r *raceDetector) report(prev epoch, prevWrite bool, cur epoch, curWrite bool, addr uintptr) {
	pair := [2]int{int(min(prev.site, cur.site)), int(max(prev.site, cur.site))}
	if r.capture == nil && raceSeen(pair) {
		return // reported by an earlier execution of this campaign
	}
	r.prev, r.prevWrite, r.raceAddr, r.pair = prev, prevWrite, addr, pair
	r.race = &Failure{Kind: FailRace, Site: int(cur.site), Goroutine: int(cur.g), Message: fmt.Sprintf(
		"data race on %s: %s at %s by %s (created at %s), unordered with the %s at %s by %s (created at %s)",
		raceObject(int(cur.site), int(prev.site))+raceVariable(int(cur.site), int(prev.site)), accessName(curWrite, cur.site), sitePos(int(cur.site)), gname(int(cur.g)),
		r.createdAt(int(cur.g)), accessName(prevWrite, prev.site), sitePos(int(prev.site)), gname(int(prev.g)), r.createdAt(int(prev.g))),
		Stack: accessStack(rw(curWrite), cur), Key: fmt.Sprintf("race %d %d", pair[0], pair[1])}
	if earlier := r.captured(addr); earlier != "" {
		r.race.Stack += "\n\n" + earlier
	}
}

// accessName is rw, "atomic " first for a sync/atomic operation, and says
// what a WaitGroup's accesses are (models.go).
func accessName(write bool, site int32) string {
	switch siteKind(int(site)) {
	case KindAtomic, KindAtomicLoad:
		return "atomic " + rw(write)
	case KindWGAdd:
		return "WaitGroup.Add from zero (a read of its wait state)"
	case KindWGWait:
		return "waiting WaitGroup.Wait (a write of its wait state)"
	}
	return rw(write)
}

func rw(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

// accessStack is the stack of the access being reported, user frames only:
// Observe runs on the goroutine performing it. The earlier access's stack is
// not kept during the hunt (it would cost a stack walk at every access):
// racestack.go captures it by running the execution again.
func accessStack(what string, cur epoch) string {
	frames := strings.Split(string(debug.Stack()), "\n")
	frames[0] = fmt.Sprintf("%s at %s by %s:", what, sitePos(int(cur.site)), gname(int(cur.g)))
	return trimStack(frames)
}

// raceVariable names the variable of Q (from the alias analysis's
// site→variable table) that both sites may touch, when there is exactly
// one: " (variable NAME)"; "" otherwise.
func raceVariable(a, b int) string {
	if uint(a) >= uint(len(siteVars)) || uint(b) >= uint(len(siteVars)) {
		return ""
	}
	var common []int32
	for _, v := range siteVars[a] {
		for _, w := range siteVars[b] {
			if v == w {
				common = append(common, v)
			}
		}
	}
	if len(common) != 1 || int(common[0]) >= len(varTable) {
		return ""
	}
	v := varTable[common[0]]
	if v.Kind == "alloc" {
		return " (variable allocated at " + v.Name + ")"
	}
	return " (variable " + v.Name + ")"
}

func (r *raceDetector) createdAt(g int) string {
	if g < len(r.created) && r.created[g] >= 0 {
		return sitePos(r.created[g])
	}
	return "test start"
}

// raceObject names the memory of a race by its access's source text.
func raceObject(sites ...int) string {
	for _, s := range sites {
		if uint(s) < uint(len(siteTable)) && siteTable[s].Expr != "" {
			return siteTable[s].Expr
		}
	}
	return "memory"
}

func (r *raceDetector) Finish(ExecOutcome) *Failure { return r.race }

// Races are deduplicated by site pair within a worker process: a campaign
// that goes on after a race (profiling, explore -all) does not report it
// again. Across workers the parent deduplicates by BugReport.Key.
var (
	racesMu   sync.Mutex
	racesSeen = map[[2]int]bool{}
)

// raceSeen says whether the race of the site pair key was reported before
// in this process, and notes it.
func raceSeen(key [2]int) bool {
	racesMu.Lock()
	defer racesMu.Unlock()
	seen := racesSeen[key]
	racesSeen[key] = true
	return seen
}
