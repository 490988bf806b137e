package mutex

import (
	sy "sync"
)

type Embed struct {
	sy.Mutex
	n int
}

type EmbedPtr struct {
	*sy.RWMutex
}

type Deep struct {
	Embed
}

type Locked[T any] struct {
	mu sy.Mutex
	v  T
}

func (l *Locked[T]) Get() T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v
}

func Use(mu *sy.Mutex, rw *sy.RWMutex, e Embed, p *EmbedPtr, d *Deep, l sy.Locker) bool {
	mu.Lock()
	mu.Unlock()
	var local sy.Mutex
	local.Lock()
	defer local.Unlock()
	rw.Lock()
	rw.Unlock()
	rw.RLock()
	rw.RUnlock()
	_ = rw.TryLock() && rw.TryRLock()
	e.Lock()
	e.Unlock()
	p.RLock()
	p.RUnlock()
	d.Lock()
	d.Unlock()
	l.Lock()
	l.Unlock()
	rl := rw.RLocker()
	rl.Lock()
	f := local.Unlock
	_ = f
	return mu.TryLock()
}

// locker is the code's own interface with sync.Locker's methods: its calls
// go to the runtime, which finds the mutex of Embed from the dynamic type
// (pct/lockers.go).
type locker interface {
	Lock()
	Unlock()
	Done() bool
}

type onlyLock interface{ Lock() }

func (e *Embed) Done() bool { return e.n > 0 }

func ViaInterface(l locker, o onlyLock) {
	l.Lock()
	defer l.Unlock()
	o.Lock()
}

// readLocker's RLock and RUnlock go to the runtime as well (IfaceRLock),
// which finds EmbedPtr's RWMutex from the dynamic type.
type readLocker interface {
	RLock()
	RUnlock()
}

func ViaReadLocker(r readLocker) {
	r.RLock()
	defer r.RUnlock()
}

// Func values of lock methods call the runtime too: method values of an
// interface's, method expressions whose receiver is not the mutex itself.
func FuncValues(l locker, r readLocker, e *Embed, p EmbedPtr) {
	lock, runlock := l.Lock, r.RUnlock
	lock()
	runlock()
	(*Embed).Lock(e)
	sy.Locker.Unlock(e)
	(*Deep).Lock(&Deep{})
	EmbedPtr.RLock(p)
	readLocker.RUnlock(p)
}
