package pct

import "unsafe"

// The engine reports what the program does as a stream of events, in the
// order the operations take effect under the controlled schedule (exactly
// one goroutine runs at a time, so the stream is a linearisation of the
// execution). Observers subscribe to it (race detection, happens-before
// hashing, coverage, profiling); strategies decide. The scheduler's own
// token handoffs are never events: only the program's operations are.

// EventKind says what happened.
type EventKind uint8

// Every operation that changes state other goroutines can see is an event,
// emitted when the change takes effect: observers that hash an execution's
// history (exhaustive search's pruning) rely on it, since two executions
// with the same events must be in the same state.
//
// Event kinds. Obj identifies the object operated on (a channel, mutex,
// WaitGroup, Once, Cond, map, or memory address); 0 when unknown (a select
// over several channels, an atomic whose address gopct does not see).
const (
	EvSpawn   EventKind = iota + 1 // G started goroutine Other at Site
	EvExit                         // G returned (or ended with Goexit)
	EvBlock                        // G blocks on Obj: in a real operation or in a model
	EvWake                         // G runs again after EvBlock on Obj
	EvAcquire                      // G acquired Obj: Lock/RLock, WaitGroup.Wait or Once.Do returned, Cond.Wait woke
	EvRelease                      // G released Obj: Unlock/RUnlock, WaitGroup.Add/Done, Once.Do's f returned, Cond.Signal
	EvChan                         // G completed a channel operation Op on Obj without blocking
	EvAtomic                       // G performed a sync/atomic or sync.Map operation (sequentially consistent)
	EvRead                         // G read memory Obj at Site (a map as a whole for map operations)
	EvWrite                        // G wrote memory Obj at Site
	EvTime                         // the fake clock moved by Other nanoseconds while nobody ran
	EvTimer                        // G armed a timer (Sleep, After, NewTimer, AfterFunc, tickers, contexts)
)

var eventNames = [...]string{"", "spawn", "exit", "block", "wake", "acquire", "release", "chan", "atomic", "read", "write", "time", "timer"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "event?"
}

// Event is one operation of the program.
type Event struct {
	Kind  EventKind
	G     int      // the goroutine performing it
	Other int      // EvSpawn: the child; EvTime: nanoseconds; EvChan of a select that did not block: 1 + the case taken; EvBlock, EvWake: nativeWait when G waits inside code gopct does not instrument (native.go)
	Site  int      // where (-1: no site)
	Op    SiteKind // the operation at Site (send, receive, lock, rlock, ...)
	Obj   uintptr
	// Same: an EvWrite that stores the value already there (known for
	// plain stores during a livelock window only; false otherwise).
	Same bool
	// Sel: a select's EvBlock, EvChan and EvWake carry its cases (nil
	// otherwise, and after Observe returns: the cases are the execution's
	// buffer). Obj stays 0, as for any operation on several channels.
	Sel *SelectCases
}

// SelectCases are the cases of a select, for the race detector: Chans[i]
// is case i's channel (ChanID) and Sends[i] whether the case sends; Taken
// is the case the select took (-1 at its EvBlock, or when a channel gopct
// left out of the select woke it).
type SelectCases struct {
	Chans []uintptr
	Sends []bool
	Taken int
}

// Observer receives the events of one execution. Observe runs on the
// goroutine holding the token, so it needs no locking; it must not block
// and must not call into the scheduler. Finish is called once the
// execution has ended; a non-nil failure it returns (e.g. a data race) is
// the execution's failure when nothing else failed.
type Observer interface {
	Observe(ev *Event)
	Finish(o ExecOutcome) *Failure
}

// observerMakers build the observers of each execution; features register
// a maker when their Config option is on (see runner.newExecution).
type observerMaker func(cfg *Config) Observer

var observerMakers []observerMaker

// RegisterObserver adds an observer to every execution of the campaigns
// whose config it accepts (mk returns nil to stay out).
func RegisterObserver(mk func(cfg *Config) Observer) { observerMakers = append(observerMakers, mk) }

// observe subscribes the observers that cfg asks for.
func (e *execution) observe(cfg *Config, s Strategy) {
	if o, ok := s.(Observer); ok {
		e.obs = append(e.obs, o) // a strategy that learns from the events (exhaustive)
	}
	for _, mk := range observerMakers {
		if o := mk(cfg); o != nil {
			e.obs = append(e.obs, o)
		}
	}
	e.observing = len(e.obs) > 0
	e.unfast()
}

// finishObservers tells the observers that the execution ended; the first
// failure one of them finds becomes the execution's, unless it already
// failed.
func (e *execution) finishObservers() {
	o := e.outcome()
	for _, ob := range e.obs {
		if f := ob.Finish(o); f != nil && e.failure == nil {
			f.Step = e.step
			e.failure = f
		}
	}
}

// emit hands ev to the observers. Callers test e.observing first, so that
// an execution without observers pays one branch per operation.
//
// The event goes through a field of the execution, not &ev: passed to an
// interface method, ev would escape and every memory access of an observed
// execution would allocate (11% of a MergeSort worker's CPU; with the
// collector paused during race executions, hundreds of megabytes per
// execution of a memory-bound test). Observers read the event during
// Observe, keep no pointer to it and do not emit, so the buffer is never in
// use twice.
func (e *execution) emit(ev Event) {
	e.evBuf = ev
	e.dispatch()
}

// emitSelect emits a select's event of kind k by g at site, with its
// cases (chans, which may be nil: not known) and the one taken.
func (e *execution) emitSelect(k EventKind, g *G, site, n, taken int, chans func(int) (uintptr, bool)) {
	ev := Event{Kind: k, G: g.id, Site: site, Op: siteKind(site)}
	if k == EvChan {
		ev.Other = taken + 1
	}
	if chans != nil {
		// Copied out of chans, which then does not escape: a select's
		// closures stay on its goroutine's stack.
		b := &e.selBuf
		b.Chans, b.Sends, b.Taken = b.Chans[:0], b.Sends[:0], taken
		for i := 0; i < n; i++ {
			c, send := chans(i)
			b.Chans, b.Sends = append(b.Chans, c), append(b.Sends, send)
		}
		ev.Sel = b
	}
	e.emit(ev)
	e.evBuf.Sel = nil // emitOp leaves Sel as it finds it
}

// emitOp is emit for the frequent events (memory accesses, note): it
// writes the buffer field by field. An Event argument is copied from the
// stack, where its byte fields were just stored one by one, with 16-byte
// loads that stall on store forwarding: 8% of a MergeSort worker's CPU with
// race detection on.
func (e *execution) emitOp(k EventKind, g, site int, obj uintptr, same bool) {
	b := &e.evBuf
	b.Kind, b.G, b.Other, b.Site, b.Op, b.Obj, b.Same = k, g, 0, site, siteKind(site), obj, same
	e.dispatch()
}

// dispatch hands the buffered event to the observers.
func (e *execution) dispatch() {
	for _, o := range e.obs {
		o.Observe(&e.evBuf)
	}
	if e.live != nil {
		e.noteProgress(&e.evBuf)
	}
}

// objOf turns a pointer into an event's object identity.
func objOf(p unsafe.Pointer) uintptr { return uintptr(p) }

// note emits an event of kind k by g on obj at site, if anyone observes.
func (e *execution) note(k EventKind, g *G, site int, obj uintptr) {
	if e.observing {
		e.emitOp(k, g.id, site, obj, false)
	}
}
