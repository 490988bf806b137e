package pct

import (
	"sync"
	"testing"
)

// TestProgNestedLocks takes two mutexes and releases them in the order
// they were taken, in two goroutines: an Unlock whose mutex is not the one
// its goroutine locked last must find its model in the table (G.locked is
// only a shortcut), or the second Unlock reports an unlocked mutex.
func TestProgNestedLocks(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var a, b sync.Mutex
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 2)
		for range 2 {
			Go(sGo, func() {
				for range 3 {
					Lock(sLock, &a)
					Lock(sLock, &b)
					Unlock(sUnlock, &a)
					Unlock(sUnlock, &b)
				}
				WGDone(sWG, &wg)
			})
		}
		WGWait(sWG, &wg)
	})
}

func TestNestedLocks(t *testing.T) {
	mustPass(t, "TestProgNestedLocks", "pct", 50)
	mustPass(t, "TestProgNestedLocks", "random", 50)
}

// TestNoteForeign: an execution that uses a channel made outside any
// execution is marked (its deadlocks are environment errors), one that
// uses only its own is not, before and after such a channel exists.
func TestNoteForeign(t *testing.T) {
	inside, outside := make(chan int), make(chan int)
	e := &execution{}
	e.noteForeign(mapID(inside))
	if e.foreignChan {
		t.Fatal("a channel of the execution marked it foreign")
	}
	noteOutsideChan(mapID(outside))
	e.noteForeign(mapID(inside))
	if e.foreignChan {
		t.Fatal("a channel of the execution marked it foreign once an outside channel existed")
	}
	e.noteForeign(mapID(outside))
	if !e.foreignChan {
		t.Fatal("the outside channel did not mark the execution")
	}
}
