package pct

import (
	"sync"
	"testing"
	"unsafe"
)

type embedsMutex struct {
	n int
	sync.Mutex
}

type genericBox[T any] struct {
	v T
	sync.RWMutex
}

// ownLock declares Lock over its mutex: its Lock is its own, its Unlock
// the mutex's.
type ownLock struct{ sync.Mutex }

func (o *ownLock) Lock() { o.Mutex.Lock() }

type aboveOwn struct{ ownLock }

type deeper struct{ inner embedsMutex }

// shallowWins: X's mutex is at depth 2, Y's at depth 3; Go promotes X's.
type shallowWins struct {
	Y struct{ embedsMutex }
	embedsMutex
	deeperEmbed
}

type deeperEmbed struct{ embedsMutex }

type rwByPointer struct{ *sync.RWMutex }

type embedsLocker struct{ sync.Locker }

func TestLockTarget(t *testing.T) {
	type local struct{ sync.Mutex }
	var mu sync.Mutex
	var rw sync.RWMutex
	em, gb, ow, ab, lo := &embedsMutex{}, &genericBox[int]{}, &ownLock{}, &aboveOwn{}, &local{}
	sw := &shallowWins{}
	cases := []struct {
		v    any
		name string
		want unsafe.Pointer // nil: the value's own method
		mode lockMode
	}{
		{&mu, "Lock", unsafe.Pointer(&mu), mutexW},
		{&mu, "RLock", nil, 0},
		{&rw, "RUnlock", unsafe.Pointer(&rw), rwR},
		{rw.RLocker(), "Lock", unsafe.Pointer(&rw), rwR},
		{RLocker(0, &rw), "Lock", nil, 0},
		{em, "Unlock", unsafe.Pointer(&em.Mutex), mutexW},
		{em, "RLock", nil, 0},
		{gb, "Lock", unsafe.Pointer(&gb.RWMutex), rwW},
		{gb, "RLock", unsafe.Pointer(&gb.RWMutex), rwR},
		{lo, "Lock", unsafe.Pointer(&lo.Mutex), mutexW},
		{ow, "Lock", nil, 0},
		{ow, "Unlock", unsafe.Pointer(&ow.Mutex), mutexW},
		{ab, "Lock", nil, 0},
		{ab, "Unlock", unsafe.Pointer(&ab.Mutex), mutexW},
		{sw, "Lock", unsafe.Pointer(&sw.embedsMutex.Mutex), mutexW},
		{rwByPointer{&rw}, "RLock", unsafe.Pointer(&rw), rwR},
		{rwByPointer{}, "Lock", nil, 0},
		{embedsLocker{&mu}, "Unlock", unsafe.Pointer(&mu), mutexW},
		{&embedsLocker{ow}, "Lock", nil, 0},
		{&deeper{}, "Lock", nil, 0},
	}
	for i, c := range cases {
		m, mode, ok := lockTarget(c.v, c.name)
		var got unsafe.Pointer
		if ok {
			got = lockerPtr(m)
		}
		if got != c.want || ok && mode != c.mode {
			t.Errorf("case %d (%T.%s): got %p mode %d ok %v, want %p mode %d", i, c.v, c.name, got, mode, ok, c.want, c.mode)
		}
	}
}
