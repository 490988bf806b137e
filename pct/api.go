package pct

// This file is the contract between the instrumenter and the runtime: every
// function here is called from rewritten user code. Each takes the site id
// first (an index into the table the instrumenter registers with
// RegisterSites). Outside a controlled execution every function behaves
// exactly like the operation it replaces.

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"
)

// SiteKind says what operation a site performs.
type SiteKind uint8

// Site kinds. The instrumenter stores one per site; the runtime uses them for
// traces and to decide which sites are memory accesses.
const (
	KindRead SiteKind = iota + 1
	KindWrite
	KindGo
	KindSend
	KindRecv
	KindClose
	KindSelect
	KindLock
	KindUnlock
	KindRLock
	KindRUnlock
	KindWGAdd
	KindWGWait
	KindOnce
	KindCondWait
	KindCondSignal
	KindAtomic
	KindSleep
	KindTimer
	KindMapRead
	KindMapWrite
	KindTestFail
	KindOther
	KindAlloc      // an allocation, or the declaration of an escaping local variable
	KindAtomicLoad // a sync/atomic or sync.Map operation that only reads
)

// SiteInfo describes one instrumented program point. Pos is the position of
// the start of the source expression or statement, "file:line:col", with the
// file path relative to the module root.
type SiteInfo struct {
	Pos  string
	Kind SiteKind
	Expr string // short source text, for reports
}

// RegisterSites installs the site table. The instrumenter generates one call
// from an init function of the sites module (gopct.invalid/sites), which
// the instrumented test files import; ids are indexes into sites. Code that
// runs before it (other packages' initialisation) runs outside any
// execution, where no table is read.
func RegisterSites(sites []SiteInfo) {
	siteTable = sites
	memWords = buildMemWords(sites)
	siteVars = decodeSiteVars(siteVarsEnc, len(sites), len(varTable))
	sitesActive = resetGate(len(sites)) // off until a run activates them
}

var siteTable []SiteInfo

// ---- memory ----

// Load reads *p after a scheduling point.
// An active site's access inside the holder's batch only counts (tally.go).
// Load and Store must stay inlinable (cost <= 80: Load is 78, Store 80):
// a call from the user's loop costs more than the access it guards.
func Load[T any](site int, p *T) T {
	if gate[site] { // memoryOn(site) without its bounds check (gate.go)
		if !tallyOn {
			access(site, unsafe.Pointer(p), nil, false, unsafe.Sizeof(*p))
		} else if tally--; tally < 0 {
			access(site, unsafe.Pointer(p), nil, false, unsafe.Sizeof(*p))
		}
	}
	return *p
}

// LoadPtr is Load for a read that gc makes after the calls of its
// statement (instrument/evalorder.go): the access is recorded here, and the
// caller reads *p where gc would, in (*LoadPtr(site, &x)).
func LoadPtr[T any](site int, p *T) *T {
	if gate[site] {
		if !tallyOn {
			access(site, unsafe.Pointer(p), nil, false, unsafe.Sizeof(*p))
		} else if tally--; tally < 0 {
			access(site, unsafe.Pointer(p), nil, false, unsafe.Sizeof(*p))
		}
	}
	return p
}

// Store writes v to *p after a scheduling point. v is evaluated by the caller
// before the point, so `x = f()` is preemptible between f and the store.
// (An outlined generic call for the point, which kept v in registers on
// the inactive path, no longer fits the inlining budget with the tally.)
func Store[T any](site int, p *T, v T) {
	if gate[site] { // memoryOn(site) without its bounds check (gate.go)
		if !tallyOn {
			access(site, unsafe.Pointer(p), unsafe.Pointer(&v), true, unsafe.Sizeof(v))
		} else if tally--; tally < 0 {
			access(site, unsafe.Pointer(p), unsafe.Pointer(&v), true, unsafe.Sizeof(v))
		}
	}
	*p = v
}

// Copy is copy(dst, src) of slices (copy.go): a write at dst before the
// copy, and its elements' accesses for the observers.
// Inside the holder's batch it only counts, as a Store does (tally.go):
// a batch opens only while nobody observes events.
func Copy[D ~[]E, S ~[]E, E any](site int, dst D, src S) int {
	if n := min(len(dst), len(src)); n > 0 && gate[site] {
		if !tallyOn {
			copyAccess(site, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n, unsafe.Sizeof(dst[0]))
		} else if tally--; tally < 0 {
			copyAccess(site, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n, unsafe.Sizeof(dst[0]))
		}
	}
	return copy(dst, src)
}

// CopyString is copy(dst, src) from a string.
func CopyString[D ~[]byte, S ~string](site int, dst D, src S) int {
	if n := min(len(dst), len(src)); n > 0 && gate[site] {
		if !tallyOn {
			copyAccess(site, unsafe.Pointer(&dst[0]), nil, n, 1)
		} else if tally--; tally < 0 {
			copyAccess(site, unsafe.Pointer(&dst[0]), nil, n, 1)
		}
	}
	return copy(dst, src)
}

// ---- maps ----

// MapLoad is m[k].
func MapLoad[M ~map[K]V, K comparable, V any](site int, m M, k K) V {
	if gate[site] && !mapInBatch(mapID(m), 1) { // inactive: no call (gate.go); batches: tally_sync.go
		mapRead(site, mapID(m))
	}
	return m[k]
}

// MapLoad2 is v, ok := m[k].
func MapLoad2[M ~map[K]V, K comparable, V any](site int, m M, k K) (V, bool) {
	if gate[site] && !mapInBatch(mapID(m), 1) {
		mapRead(site, mapID(m))
	}
	v, ok := m[k]
	return v, ok
}

// MapStore is m[k] = v. Like the Go runtime it holds a "writing" mark on the
// map across a scheduling point, so that two overlapping writes are reported
// as "concurrent map writes", exactly when Go would be allowed to crash.
func MapStore[M ~map[K]V, K comparable, V any](site int, m M, k K, v V) {
	if !gate[site] {
		m[k] = v
		noteStoredKey(k) // the keys' order for MapWalk, at inactive sites too
		return
	}
	id := mapID(m)
	if mapInBatch(id, 2) {
		m[k] = v
		noteStoredKey(k)
		return
	}
	if mapWriteBegin(site, id) {
		m[k] = v
		if e := mapWriteEnd(id); e != nil {
			noteKey(e, k) // the order MapWalk visits keys that hold addresses in
		}
		return
	}
	m[k] = v
	noteStoredKey(k) // an inactive site's keys keep their order too
}

// MapStorePlain is MapStore for a map whose key type holds no address
// (the instrumenter tells from the types): MapWalk needs no store order of
// such keys (keyorder.go), so the store notes none. The type switch of
// noteStoredKey, in a generic function's dictionary, was 1.5% of a sharded
// set's CPU under PCTVB v=1 (issue 11).
func MapStorePlain[M ~map[K]V, K comparable, V any](site int, m M, k K, v V) {
	if !gate[site] {
		m[k] = v
		return
	}
	id := mapID(m)
	if mapInBatch(id, 2) {
		m[k] = v
		return
	}
	if mapWriteBegin(site, id) {
		m[k] = v
		mapWriteEnd(id)
		return
	}
	m[k] = v
}

// MapDelete is delete(m, k).
func MapDelete[M ~map[K]V, K comparable, V any](site int, m M, k K) {
	if !gate[site] {
		delete(m, k)
		return
	}
	id := mapID(m)
	if mapWriteBegin(site, id) {
		delete(m, k)
		mapWriteEnd(id)
		return
	}
	delete(m, k)
}

// MapClear is clear(m).
func MapClear[M ~map[K]V, K comparable, V any](site int, m M) {
	if !gate[site] {
		clear(m)
		return
	}
	id := mapID(m)
	if mapWriteBegin(site, id) {
		clear(m)
		mapWriteEnd(id)
		return
	}
	clear(m)
}

// ---- variables (profiling) ----

// Alloc returns p, the value of the allocation expression at site: new(T),
// &T{...}, make(...), a slice or map composite literal, append(...). In
// profiling runs it records the memory p refers to as the variable named by
// the site's position, the name the alias analysis gives the allocation.
// Otherwise it costs a flag test.
func Alloc[P any](site int, p P) P {
	if profiling || loopNaming {
		recordAlloc(site, p)
	}
	return p
}

// MakeChan is make(chan T, n): an allocation like Alloc, and in addition
// channels made outside any execution (package variables, init functions)
// are remembered: a test that communicates through one depends on
// goroutines the bubble cannot see, and a "deadlock" it then shows is
// reported as an environment error, not as a bug.
func MakeChan[C any](site int, c C) C {
	if profiling || loopNaming {
		recordAlloc(site, c)
	}
	if current.Load() == nil {
		noteOutsideChan(mapID(c))
	}
	return c
}

// Local records, in profiling runs, the address of a local variable whose
// address escapes (captured by a closure, or &x taken), declared at site.
// The instrumenter calls it right after the declaration (and at function
// entry for an escaping parameter).
func Local[T any](site int, p *T) {
	if profiling || loopNaming {
		recordAlloc(site, p)
	}
}

// Global records the address of a package-level variable under its name
// "importpath.Name"; each instrumented package calls it from a generated
// init function for each of its package-level variables.
func Global[T any](name string, p *T) { registerGlobal(name, p) }

// ---- generic points ----

// Point is a scheduling point before an operation the runtime does not model
// (sync/atomic calls, sync.Map methods, len/cap of a channel). It returns a
// value so that it can be sequenced before an expression with Seq. It is a
// synchronisation point: the memory gate never switches it off.
func Point(site int) struct{} {
	syncPoint(site) // a sync point: never gated by the tracked variables
	return struct{}{}
}

// Seq returns v; used as Seq(Point(s), atomic.AddInt64(p, 1)) so that the
// call happens after the point (calls are evaluated left to right).
func Seq[T any](_ struct{}, v T) T { return v }

// AtomicAt is Point for a sync/atomic function whose first argument is the
// address p it operates on; it returns p, so that it replaces that
// argument: atomic.AddInt32(AtomicAt(s, &x), 1). The address goes into the
// event, and the race detector checks the operation against the plain
// accesses to the same memory (an atomic and a plain access unordered by
// happens-before are a data race, as for Go's -race; two atomics never
// are).
func AtomicAt[T any](site int, p *T) *T {
	if tallyOn && tallySync && tally > 0 { // syncInBatch written out: AtomicAt inlines (issue 11)
		tally--
		tallySyncUsed++
		return p
	}
	atomicPoint(site, unsafe.Pointer(p))
	return p
}

// PointAt is AtomicAt where the address is already in a temporary (the
// call's arguments were hoisted): { a := &x; PointAt(s, a); atomic.AddInt32(a, 1) }.
func PointAt[T any](site int, p *T) struct{} {
	if tallyOn && tallySync && tally > 0 { // as in AtomicAt
		tally--
		tallySyncUsed++
		return struct{}{}
	}
	atomicPoint(site, unsafe.Pointer(p))
	return struct{}{}
}

// ---- goroutines and tests ----

// Go starts f as a new goroutine: `go f(a, b)` becomes, after evaluating the
// arguments in the parent, Go(site, func() { f(a', b') }).
func Go(site int, f func()) { spawn(site, f) }

// RunTest runs a test body: under gopct (GOPCT_CONFIG set and naming this
// test) many controlled executions of it; otherwise it calls body(t).
func RunTest(t *testing.T, body func(t *testing.T)) { runTest(t, body) }

// Redirect starts a test under gopct: the instrumenter rewrites `func
// TestX(t *testing.T) { BODY }` into `func TestX(t *testing.T) { if
// Redirect(t, TestX) { return }; defer BodyEnd(); { BODY } }`. Called by
// testing for the test GOPCT_CONFIG names, it runs the controlled
// executions and returns true; each execution's bubble runs TestX itself
// under testing's tRunner, where Redirect makes it goroutine g0 and returns
// false. So runtime.Caller, stack traces and the names of the body's
// function literals are those of go test: a closure around the body made
// every caller "TestX.func1", and the frames above it gopct's runner
// (go.uber.org/fx's caller-name tests and zap's AddCallerSkip tests failed
// in every execution). For any other test, or without gopct, it returns
// false and the body runs as written; a test function called by another
// runs its body inline.
func Redirect(t *testing.T, test func(t *testing.T)) bool {
	if e := current.Load(); e != nil {
		e.testDepth++
		if e.hosted && e.testDepth == 1 {
			e.startBody(t)
		}
		return false
	}
	cfg, err := loadConfig()
	if err != nil {
		t.Fatalf("gopct: %v", err)
	}
	if cfg == nil || cfg.Test != t.Name() {
		return false
	}
	r := &runner{cfg: cfg, t: t, start: time.Now(), hosted: true}
	r.run(test)
	return true
}

// BodyEnd ends a test function that Redirect started, deferred first in
// its body so that it runs after the body's own deferred calls (and
// recovers its panic). A test function that called another, or one run
// without gopct, passes through.
func BodyEnd() {
	e := current.Load()
	if e == nil || e.testDepth == 0 {
		return
	}
	if e.testDepth--; !e.hosted || e.testDepth > 0 {
		return
	}
	r := recover()
	if r == nil && !e.fatalExit && !e.bodyT.Skipped() {
		e.bodyNormal = true // returned (or stopped by code gopct does not see)
	}
	e.endBody(r)
}

// ---- channels ----

// Send is ch <- v.
func Send[T any](site int, ch chan<- T, v T) {
	e, g := self()
	if e == nil {
		ch <- v
		return
	}
	e.chanOp(g, site, mapID(ch), func() bool {
		select {
		case ch <- v:
			return true
		default:
			return false
		}
	}, func() { ch <- v })
}

// Recv is <-ch.
func Recv[T any](site int, ch <-chan T) T {
	v, _ := Recv2(site, ch)
	return v
}

// Recv2 is v, ok := <-ch.
func Recv2[T any](site int, ch <-chan T) (v T, ok bool) {
	e, g := self()
	if e == nil {
		v, ok = <-ch
		return
	}
	e.chanOp(g, site, mapID(ch), func() bool {
		select {
		case v, ok = <-ch:
			return true
		default:
			return false
		}
	}, func() { v, ok = <-ch })
	return
}

// Close is close(ch).
func Close[T any](site int, ch chan<- T) {
	closeOp(site, mapID(ch))
	close(ch)
}

// Select runs a select statement. Channel operands and send values are
// evaluated by the caller before the call, in source order. try(i) attempts
// case i without blocking (a select with default) and reports whether it was
// taken; block() performs the full blocking select (over the operands'
// Masks, and Kicker) and returns the index of the case taken, or -2 when the
// kicker fired: the cases are tried again. chans(i) is case i's channel
// (ChanID) and whether the case sends, for the race detector (nil: not
// known). Select returns the index of the case taken, or -1 for the
// default case. The strategy, not Go's random choice, orders the attempts.
func Select(site int, n int, hasDefault bool, try func(i int) bool, block func() int, chans func(i int) (uintptr, bool)) int {
	return selectOp(site, n, hasDefault, try, block, chans)
}

// ChanID is a channel's identity in events: the address of its runtime
// structure (0 for nil).
func ChanID[C any](c C) uintptr { return uintptr(mapID(c)) }

// Mask is a channel operand of a select as its blocking select uses it:
// nil (a case that never fires) for a channel made outside the test that
// only the execution's goroutines can use, the channel otherwise
// (foreign.go). The instrumenter evaluates it before Select, once per
// operand.
func Mask[C any](c C) C {
	if outsideN.Load() == 0 {
		return c
	}
	if e, g := self(); e != nil && e.maskChan(g, mapID(c)) {
		var none C
		return none
	}
	return c
}

// Kicker is the channel a select's blocking select waits on beside its
// cases, evaluated after its Masks: when one left a channel out, a receive
// from it makes the blocking function return -2 (try again); otherwise
// nil.
func Kicker() <-chan struct{} {
	if outsideN.Load() == 0 {
		return nil
	}
	if e, g := self(); e != nil {
		return g.kicker()
	}
	return nil
}

// ---- sync.Mutex and sync.RWMutex ----

// Lock is m.Lock().
func Lock(site int, m *sync.Mutex) { mutexLock(site, m) }

// Unlock is m.Unlock().
func Unlock(site int, m *sync.Mutex) { mutexUnlock(site, m) }

// TryLock is m.TryLock().
func TryLock(site int, m *sync.Mutex) bool { return tryLockOp(site, m, mutexW) }

// WLock is rw.Lock().
func WLock(site int, rw *sync.RWMutex) { lockOp(site, rw, rwW) }

// WUnlock is rw.Unlock().
func WUnlock(site int, rw *sync.RWMutex) { unlockOp(site, rw, rwW) }

// WTryLock is rw.TryLock().
func WTryLock(site int, rw *sync.RWMutex) bool { return tryLockOp(site, rw, rwW) }

// RLock is rw.RLock().
func RLock(site int, rw *sync.RWMutex) { lockOp(site, rw, rwR) }

// RUnlock is rw.RUnlock().
func RUnlock(site int, rw *sync.RWMutex) { unlockOp(site, rw, rwR) }

// TryRLock is rw.TryRLock().
func TryRLock(site int, rw *sync.RWMutex) bool { return tryLockOp(site, rw, rwR) }

// RLocker is rw.RLocker(): a Locker whose Lock and Unlock are modelled.
func RLocker(site int, rw *sync.RWMutex) sync.Locker { return rlocker{site, rw} }

// Locker is sync.Locker, named here so that instrumented code converts to
// it without importing sync (the method value l.Lock of the code's own
// interface becomes Bind(site, Locker(l), LockerLock)).
type Locker = sync.Locker

// LockerLock is l.Lock() on a sync.Locker interface value.
func LockerLock(site int, l sync.Locker) { lockerOp(site, l, true) }

// LockerUnlock is l.Unlock() on a sync.Locker interface value.
func LockerUnlock(site int, l sync.Locker) { lockerOp(site, l, false) }

// IfaceRLock is l.RLock() on an interface value (an RWMutex's RLock when
// the value's type promotes it, its own method otherwise).
func IfaceRLock(site int, l interface{ RLock() }) { rlockOp(site, l, true) }

// IfaceRUnlock is l.RUnlock() on an interface value.
func IfaceRUnlock(site int, l interface{ RUnlock() }) { rlockOp(site, l, false) }

// LockModelled runs l's Lock (lock) or Unlock on the model of the standard
// mutex it is, or is promoted from, and says whether there was one; when
// not, the instrumented code calls l's method itself, so that the method's
// caller is the code's frame (runtime.Caller), not the runtime's.
func LockModelled(site int, l any, lock bool) bool {
	return modelledOp(site, l, "Lock", "Unlock", lock)
}

// RLockModelled is LockModelled for RLock (lock) and RUnlock.
func RLockModelled(site int, l any, lock bool) bool {
	return modelledOp(site, l, "RLock", "RUnlock", lock)
}

// IfaceTryLock is l.TryLock() on an interface value.
func IfaceTryLock(site int, l interface{ TryLock() bool }) bool {
	return tryOp(site, l, "TryLock", l.TryLock)
}

// IfaceTryRLock is l.TryRLock() on an interface value.
func IfaceTryRLock(site int, l interface{ TryRLock() bool }) bool {
	return tryOp(site, l, "TryRLock", l.TryRLock)
}

// ---- sync.WaitGroup, Once, Cond ----

// WGAdd is wg.Add(delta).
func WGAdd(site int, wg *sync.WaitGroup, delta int) { wgAdd(site, wg, delta) }

// WGDone is wg.Done().
func WGDone(site int, wg *sync.WaitGroup) { wgAdd(site, wg, -1) }

// WGWait is wg.Wait().
func WGWait(site int, wg *sync.WaitGroup) { wgWait(site, wg) }

// WGGo is wg.Go(f).
func WGGo(site int, wg *sync.WaitGroup, f func()) {
	wgAdd(site, wg, 1)
	spawn(site, func() {
		defer wgAdd(site, wg, -1)
		f()
	})
}

// OnceDo is o.Do(f).
func OnceDo(site int, o *sync.Once, f func()) { onceDo(site, o, f) }

// OnceDoGlobal is o.Do(f) for o a package-level variable: goroutines f
// starts serve the process, not the test (pct/daemons.go).
func OnceDoGlobal(site int, o *sync.Once, f func()) { onceDoGlobal(site, o, f) }

// CondWait is c.Wait().
func CondWait(site int, c *sync.Cond) { condWait(site, c) }

// CondSignal is c.Signal().
func CondSignal(site int, c *sync.Cond) { condNotify(site, c, false) }

// CondBroadcast is c.Broadcast().
func CondBroadcast(site int, c *sync.Cond) { condNotify(site, c, true) }

// ---- time and context ----

// Sleep is time.Sleep(d).
func Sleep(site int, d time.Duration) { sleepOp(site, d) }

// After is time.After(d).
func After(site int, d time.Duration) <-chan time.Time {
	return time.After(noteTimer(site, d, fromReadings))
}

// NewTimer is time.NewTimer(d).
func NewTimer(site int, d time.Duration) *time.Timer {
	return time.NewTimer(noteTimer(site, d, fromReadings))
}

// AfterFunc is time.AfterFunc(d, f); f runs as a managed goroutine.
func AfterFunc(site int, d time.Duration, f func()) *time.Timer {
	cb, tc := adoptTimer(site, f)
	t := time.AfterFunc(noteTimer(site, d, fromReadings), cb)
	if e, _ := self(); e != nil && tc != nil {
		if e.timerCallbacks == nil {
			e.timerCallbacks = map[*time.Timer]*timerCallback{}
		}
		e.timerCallbacks[t] = tc
	}
	return t
}

// ContextAfterFunc is context.AfterFunc(ctx, f); f runs as a managed
// goroutine when ctx is done.
func ContextAfterFunc(site int, ctx context.Context, f func()) (stop func() bool) {
	syncPoint(site)
	return context.AfterFunc(ctx, adopt(site, f, true))
}

// TimerReset is t.Reset(d).
func TimerReset(site int, t *time.Timer, d time.Duration) bool {
	if e, g := self(); e != nil {
		e.rearm(g, t)
	}
	return t.Reset(noteTimer(site, d, fromReadings))
}

// Tick is time.Tick(d).
func Tick(site int, d time.Duration) <-chan time.Time {
	return time.Tick(noteTicker(site, d))
}

// NewTicker is time.NewTicker(d).
func NewTicker(site int, d time.Duration) *time.Ticker {
	return time.NewTicker(noteTicker(site, d))
}

// TickerReset is t.Reset(d).
func TickerReset(site int, t *time.Ticker, d time.Duration) {
	t.Reset(noteTicker(site, d))
}

// WithTimeout is context.WithTimeout(parent, d).
func WithTimeout(site int, parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, noteTimer(site, d, fromReadings))
}

// WithDeadline is context.WithDeadline(parent, when).
func WithDeadline(site int, parent context.Context, when time.Time) (context.Context, context.CancelFunc) {
	d := time.Until(when)
	return context.WithDeadline(parent, when.Add(noteTimer(site, d, fromInstant)-d))
}

// Gosched is runtime.Gosched(): a scheduling point at which the goroutine
// asks to let others run. Strategies honour it (PCT lowers the caller below
// the other runnable goroutines), so a spin loop that yields does not starve
// the goroutine it waits for.
func Gosched(site int) {
	e, g := self()
	if e == nil {
		runtime.Gosched()
		return
	}
	e.yielding = true
	e.unfast()
	e.noteYield(g)
	e.point(g, site)
	e.yielding = false
}

// ---- method values and expressions of modelled types ----

// Bind is a method value such as s.wg.Done or mu.Unlock: the receiver p is
// evaluated now, op (the runtime's replacement, e.g. WGDone) runs on call.
func Bind[P any](site int, p P, op func(int, P)) func() { return func() { op(site, p) } }

// Bind1 is a method value taking one argument, such as wg.Add.
func Bind1[P, A any](site int, p P, op func(int, P, A)) func(A) {
	return func(a A) { op(site, p, a) }
}

// Expr is a method expression such as (*sync.Mutex).Lock.
func Expr[P any](site int, op func(int, P)) func(P) { return func(p P) { op(site, p) } }

// Expr1 is a method expression taking one argument, such as
// (*sync.WaitGroup).Add.
func Expr1[P, A any](site int, op func(int, P, A)) func(P, A) {
	return func(p P, a A) { op(site, p, a) }
}

// ---- sync.OnceFunc and friends ----

// OnceFunc is sync.OnceFunc(f), on the modelled Once: a caller that arrives
// while f runs waits in the model instead of on Once's hidden mutex. As in
// sync, a panic of f is raised again by every call.
func OnceFunc(site int, f func()) func() {
	var once sync.Once
	var failure any
	failed := false
	return func() {
		OnceDo(site, &once, func() {
			defer func() {
				if r := recover(); r != nil {
					failure, failed = r, true
				}
			}()
			f()
		})
		if failed {
			panic(failure)
		}
	}
}

// OnceValue is sync.OnceValue(f) on the modelled Once.
func OnceValue[T any](site int, f func() T) func() T {
	var v T
	g := OnceFunc(site, func() { v = f() })
	return func() T { g(); return v }
}

// OnceValues is sync.OnceValues(f) on the modelled Once.
func OnceValues[T1, T2 any](site int, f func() (T1, T2)) func() (T1, T2) {
	var v1 T1
	var v2 T2
	g := OnceFunc(site, func() { v1, v2 = f() })
	return func() (T1, T2) { g(); return v1, v2 }
}

// ---- test failures ----

// TRun is t.Run(name, f). A synctest bubble does not allow subtests, so
// inside a controlled execution the runtime runs the subtests selected by
// the hunt's -run pattern itself, each on a managed goroutine with the
// test's t, in go test's order (subtests.go); the others are skipped.
// Outside control it is t.Run.
func TRun(site int, t *testing.T, name string, f func(t *testing.T)) bool {
	if !controlled() {
		return t.Run(name, f)
	}
	return runSubtest(site, t, name, f)
}

// SubtestRunner is an interface with t.Run's method, through which code
// may start a subtest (testify's suite before v1.11).
type SubtestRunner interface {
	Run(name string, f func(t *testing.T)) bool
}

// TRunner is r.Run(name, f) on a SubtestRunner: TRun when r holds a
// *testing.T, r.Run otherwise.
func TRunner(site int, r SubtestRunner, name string, f func(t *testing.T)) bool {
	if t, ok := r.(*testing.T); ok {
		return TRun(site, t, name, f)
	}
	return r.Run(name, f)
}

// TParallel is t.Parallel(). Inside a controlled execution a subtest
// pauses until its parent's function returns, then runs concurrently with
// its parallel siblings; for the top-level test it is a no-op (the test
// already runs alone).
func TParallel(site int, t *testing.T) {
	if !controlled() {
		t.Parallel()
		return
	}
	parallelSubtest(site)
}

// TCleanup is t.Cleanup(f). Inside a controlled execution, called by a
// subtest's goroutine on its t, f runs when that subtest is complete, before
// its parent's t.Run returns (subtests.go): the subtests share the test's t,
// whose cleanups run only after the top-level test function has returned.
// Also b.Cleanup and tb.Cleanup through the testing.TB interface.
func TCleanup(site int, tb testing.TB, f func()) {
	if !subtestCleanup(tb, f) {
		tb.Cleanup(f)
	}
}

// TSetenv is t.Setenv(key, value). Inside a controlled execution, called
// by a subtest's goroutine on its t, the variable is restored when that
// subtest is complete, before its parent's t.Run returns, as go test does:
// the subtests share the test's t, whose cleanups run only after the
// top-level test function has returned, so the next subtest saw the value
// (go.opentelemetry.io/otel/sdk's TestTracerProviderSamplerConfigFromEnv:
// a subtest without a sampler argument found the previous one's "1.3" and
// its error). Also b.Setenv and tb.Setenv through the testing.TB interface.
func TSetenv(site int, tb testing.TB, key, value string) {
	prev, had := os.LookupEnv(key)
	tb.Setenv(key, value)
	subtestCleanup(tb, func() {
		if had {
			os.Setenv(key, prev)
		} else {
			os.Unsetenv(key)
		}
	})
}

// TChdir is t.Chdir(dir): inside a controlled execution a subtest's
// working directory (and PWD) is restored when that subtest is complete,
// as TSetenv restores a variable.
func TChdir(site int, tb testing.TB, dir string) {
	prev, err := os.Getwd()
	pwd, hadPWD := os.LookupEnv("PWD")
	tb.Chdir(dir)
	if err != nil {
		return
	}
	subtestCleanup(tb, func() {
		os.Chdir(prev)
		if hadPWD {
			os.Setenv("PWD", pwd)
		} else {
			os.Unsetenv("PWD")
		}
	})
}

// TError records a failure message and then calls the real method: method is
// one of "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow". For the
// formatted variants args[0] is the format string.
func TError(site int, t testing.TB, method string, args ...any) {
	t.Helper()
	testFailure(site, t, method, args)
}

// Errorer is the part of a test library's TestingT interface through which
// it reports a failure.
type Errorer interface {
	Errorf(format string, args ...any)
}

// TErrorf is t.Errorf(format, args...) on a test library's TestingT
// interface (testify's assertions report through it): the message is
// recorded for the report, as TError does for testing's own methods.
func TErrorf(site int, t Errorer, format string, args ...any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	noteQuoted(site, t, "Errorf", format, args)
	t.Errorf(format, args...)
}

// noteQuoted records the message a test library reports through its
// TestingT (or gomock's TestReporter) t, without the lines that name gopct's
// runtime; reported through the test's t after the test completed, it is
// go test's panic (lateReport).
func noteQuoted(site int, t any, method, format string, args []any) {
	lateReport(site, t, method, append([]any{format}, args...))
	if e, g := self(); e != nil {
		msg := dropRuntimeCallers(dropRuntimeLines(fmt.Sprintf(format, args...)))
		e.noteMessage(g, site, t, "Errorf", []any{"%s", msg})
	}
}

// Fataler is the part of a test library's reporter interface through
// which it fails the test and stops it (gomock's TestReporter.Fatalf).
type Fataler interface {
	Fatalf(format string, args ...any)
}

// TFatalf is t.Fatalf(format, args...) on a test library's reporter
// interface (gomock's Controller reports a missing or unexpected call
// through it): the message is recorded for the report, as TErrorf does.
func TFatalf(site int, t Fataler, format string, args ...any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	noteQuoted(site, t, "Fatalf", format, args)
	t.Fatalf(format, args...)
}

// ErrorerArgs is the part of a test library's TestingT interface through
// which go.uber.org/goleak reports a failure.
type ErrorerArgs interface {
	Error(args ...any)
}

// TErrorArgs is t.Error(args...) on a test library's TestingT interface
// (goleak.VerifyNone reports the goroutines it found through it): the message
// is recorded for the report, as TErrorf does.
func TErrorArgs(site int, t ErrorerArgs, args ...any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	noteQuoted(site, t, "Errorf", "%s", []any{strings.TrimSuffix(fmt.Sprintln(args...), "\n")})
	t.Error(args...)
}

// dropRuntimeCallers removes from a failure message the lines that are
// exactly the base file name and line of one of the calling goroutine's
// frames in gopct's runtime: testify's "Error Trace" lists the callers up to
// testing.tRunner, which under gopct is not the test function's caller, so
// it went on with gopct's runner ("runner.go:577", "runner.go:489", in
// reactivex/rxgo's reports), which go test never shows.
func dropRuntimeCallers(msg string) string {
	pcs := make([]uintptr, 128)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	rt := map[string]bool{}
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, rtPrefix) {
			rt[f.File[strings.LastIndexByte(f.File, '/')+1:]+":"+fmt.Sprint(f.Line)] = true
		}
		if !more {
			break
		}
	}
	if len(rt) == 0 {
		return msg
	}
	lines := strings.Split(msg, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !rt[strings.TrimSpace(l)] {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// dropRuntimeLines removes from a failure message the lines that name
// gopct's runtime (testify's "Error Trace" lists every caller's file). The
// runtime's sources moved from the build's work directory (gopct-instr-*)
// to a directory shared by the builds, under gopct's cache (73bce8c): the
// lines of testify v1.8.4 in go-pkgz/syncs's reports named runner.go there
// (sweep fresh29), so the directory is the one this file was compiled from.
func dropRuntimeLines(msg string) string {
	lines := strings.Split(msg, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !strings.Contains(l, "/gopct-instr-") && !strings.Contains(l, runtimeDir) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// runtimeDir is the directory of the runtime's sources, with a trailing
// slash.
var runtimeDir = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "\x00" // matches no message line
	}
	return file[:strings.LastIndexByte(file, '/')+1]
}()

// ---- state that must not outlive an execution ----

// Every execution runs in a synctest bubble of its own, and a channel made
// in one bubble is fatal to use from another. State that survives an
// execution could carry such channels into the next one: objects recycled
// through a sync.Pool, finalizers and cleanups that run at garbage
// collection, outside any bubble. Their documented semantics allow gopct to
// keep them out of executions: a pool recycles objects only within one
// execution.

// PoolGet is p.Get(). Inside an execution it returns an object Put to p
// earlier in the same execution (the last one, as a P's private slot does),
// or p.New's: never an object from before the execution. Tests rely on the
// reuse Go's pool gives in practice (ristretto's ring buffer fills a pooled
// stripe over several Gets); sync.Pool may also drop objects, but a pool
// that never hands anything back is no execution anyone sees.
func PoolGet(site int, p *sync.Pool) any {
	e, g := self()
	if e == nil {
		return p.Get()
	}
	return e.poolGet(g, site, p)
}

// DepPoolGet is PoolGet for the pool calls of another module, whose code
// is otherwise not instrumented (instrument/poolonly.go): only the token
// holder takes the edge. Any other goroutine runs the call natively, as
// it runs the rest of that code: one handed off inside it (blocked there)
// is not brought back in the middle of it, where it may hold the module's
// own locks, and one the module started is not counted as unmanaged.
func DepPoolGet(site int, p *sync.Pool) any {
	e := holding()
	if e == nil {
		return p.Get()
	}
	return e.poolGet(e.holder, site, p)
}

func (e *execution) poolGet(g *G, site int, p *sync.Pool) any {
	if free := e.pools[p]; len(free) > 0 {
		x := free[len(free)-1]
		e.pools[p] = free[:len(free)-1]
		e.note(EvAcquire, g, site, poolObj(x))
		return x
	}
	if p.New != nil {
		return p.New()
	}
	return nil
}

// PoolPut is p.Put(x). Inside an execution the object goes to the
// execution's own free list of p, dropped when the execution ends.
func PoolPut(site int, p *sync.Pool, x any) {
	e, g := self()
	if e == nil {
		p.Put(x)
		return
	}
	e.poolPut(g, site, p, x)
}

// DepPoolPut is PoolPut for the pool calls of another module (DepPoolGet).
func DepPoolPut(site int, p *sync.Pool, x any) {
	e := holding()
	if e == nil {
		p.Put(x)
		return
	}
	e.poolPut(e.holder, site, p, x)
}

func (e *execution) poolPut(g *G, site int, p *sync.Pool, x any) {
	if x == nil {
		return
	}
	e.note(EvRelease, g, site, poolObj(x))
	if e.pools == nil {
		e.pools = map[*sync.Pool][]any{}
	}
	e.pools[p] = append(e.pools[p], x)
}

// poolObj identifies a pooled object for the race detector as sync's race
// build does, by the pointer its interface holds: a Put happens before the
// Get that hands the object back.
func poolObj(x any) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1])
}

// SetFinalizer is runtime.SetFinalizer(obj, finalizer). Inside an
// execution a finalizer is not registered: it would run on the runtime's
// finalizer goroutine, outside the bubble (finalizers are not guaranteed
// to run at all). Clearing a finalizer (nil) is always passed on.
func SetFinalizer(site int, obj any, finalizer any) {
	if e, _ := self(); e != nil && finalizer != nil {
		e.finalizers++
		return
	}
	runtime.SetFinalizer(obj, finalizer)
}

// GC is runtime.GC(). A test that collects garbage after setting a
// finalizer waits for it to run, which inside an execution it never does:
// noted, so that the test's failure is not reported as its bug
// (finalizerWait).
func GC(site int) {
	if e, _ := self(); e != nil && e.finalizers > 0 {
		e.collected = true
	}
	runtime.GC()
}

// AddCleanup is runtime.AddCleanup(ptr, cleanup, arg). Inside an execution
// the cleanup is not registered, for the reason SetFinalizer gives; the
// zero Cleanup it returns is a valid no-op.
func AddCleanup[T, S any](site int, ptr *T, cleanup func(S), arg S) runtime.Cleanup {
	if e, _ := self(); e != nil {
		e.finalizers++
		return runtime.Cleanup{}
	}
	return runtime.AddCleanup(ptr, cleanup, arg)
}

// ---- tests that use testing/synctest themselves ----

// Every execution already runs in a synctest bubble, with fake time, and a
// bubble cannot hold another. A test's own synctest.Test therefore runs its
// function inline, in the execution's bubble, and synctest.Wait is modelled
// by the scheduler: the caller waits until every other goroutine of the
// execution is blocked, as in a bubble of its own.

// SynctestTest is synctest.Test(t, f). In a bubble of the test's own, time
// passes only when every goroutine of the bubble is durably blocked, and
// tests rely on it (workerpool's TestStop sleeps 10ms in a goroutine while
// Stop drains the queue, and asserts the queue was drained first): from here
// on the execution lets the fake clock run only when nobody can run, as
// with -early-timers=false, and time.Now stands still between sleeps, as a
// bubble's does (clock.go). The rest of the execution is the bubble's: as
// synctest.Test, it ends when the bubble's goroutines have exited.
func SynctestTest(site int, t *testing.T, f func(*testing.T)) {
	e, _ := self()
	if e == nil {
		synctest.Test(t, f)
		return
	}
	e.lazyTime = true
	e.standstill = true
	f(t)
}

// SynctestWait is synctest.Wait().
func SynctestWait(site int) {
	e, g := self()
	if e == nil {
		synctest.Wait()
		return
	}
	e.point(g, site)
	e.syncWait(g, site)
}
