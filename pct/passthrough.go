package pct

// Temporary pass-through internals: every operation runs natively. Replaced
// by the scheduler.

import (
	"sync"
	"testing"
	"time"
	"unsafe"
)

var sitesActive = make([]bool, 1<<20)

func controlled() bool                            { return false }
func access(site int, write bool)                 {}
func syncPoint(site int)                          {}
func markWoken()                                  {}
func mapID[M any](m M) unsafe.Pointer             { return *(*unsafe.Pointer)(unsafe.Pointer(&m)) }
func mapRead(site int, id unsafe.Pointer)         {}
func mapWriteBegin(site int, id unsafe.Pointer)   {}
func mapWriteEnd(id unsafe.Pointer)               {}
func spawn(site int, f func())                    { go f() }
func runTest(t *testing.T, body func(*testing.T)) { body(t) }
func chanOp(site int, try func() bool, block func()) {
	if !try() {
		block()
	}
}
func selectOp(site, n int, hasDefault bool, try func(int) bool, block func() int) int {
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

type lockMode uint8

const (
	mutexW lockMode = iota
	rwW
	rwR
)

func lockOp(site int, m sync.Locker, mode lockMode) {
	if mode == rwR {
		m.(*sync.RWMutex).RLock()
		return
	}
	m.Lock()
}
func unlockOp(site int, m sync.Locker, mode lockMode) {
	if mode == rwR {
		m.(*sync.RWMutex).RUnlock()
		return
	}
	m.Unlock()
}
func tryLockOp(site int, m sync.Locker, mode lockMode) bool {
	switch mode {
	case rwR:
		return m.(*sync.RWMutex).TryRLock()
	case rwW:
		return m.(*sync.RWMutex).TryLock()
	}
	return m.(*sync.Mutex).TryLock()
}

type rlocker struct {
	site int
	rw   *sync.RWMutex
}

func (r rlocker) Lock()   { lockOp(r.site, r.rw, rwR) }
func (r rlocker) Unlock() { unlockOp(r.site, r.rw, rwR) }

func lockerOp(site int, l sync.Locker, lock bool) {
	if lock {
		l.Lock()
	} else {
		l.Unlock()
	}
}
func wgAdd(site int, wg *sync.WaitGroup, d int) { wg.Add(d) }
func wgWait(site int, wg *sync.WaitGroup)       { wg.Wait() }
func onceDo(site int, o *sync.Once, f func())   { o.Do(f) }
func condWait(site int, c *sync.Cond)           { c.Wait() }
func condNotify(site int, c *sync.Cond, all bool) {
	if all {
		c.Broadcast()
	} else {
		c.Signal()
	}
}
func sleepOp(site int, d time.Duration)    { time.Sleep(d) }
func noteTimer(site int, d time.Duration)  {}
func noteTicker(site int, d time.Duration) {}
func adoptFunc(site int, f func()) func()  { return f }
func testFailure(site int, t testing.TB, method string, args []any) {
	t.Helper()
	switch method {
	case "Error":
		t.Error(args...)
	case "Errorf":
		t.Errorf(args[0].(string), args[1:]...)
	case "Fatal":
		t.Fatal(args...)
	case "Fatalf":
		t.Fatalf(args[0].(string), args[1:]...)
	case "Fail":
		t.Fail()
	case "FailNow":
		t.FailNow()
	}
}
