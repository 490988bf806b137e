package pct

import (
	"sync"
	"testing"
	"testing/synctest"
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

// TestWaitGroupBubbleFlag checks what wgOwnedByABubble reads of
// sync.WaitGroup: the bit Add sets in a bubble, on a heap WaitGroup only,
// and that it outlives the bubble when no real Wait waited.
func TestWaitGroupBubbleFlag(t *testing.T) {
	outside := new(sync.WaitGroup)
	outside.Add(1)
	if wgOwnedByABubble(outside) {
		t.Fatal("a WaitGroup added to outside any bubble reads as a bubble's")
	}
	outside.Done()
	inside := new(sync.WaitGroup)
	synctest.Test(t, func(t *testing.T) {
		inside.Add(1)
		if !wgOwnedByABubble(inside) {
			t.Fatal("a heap WaitGroup added to in a bubble does not read as a bubble's")
		}
		inside.Done()
	})
	if !wgOwnedByABubble(inside) {
		t.Fatal("the bubble's WaitGroup no longer reads as a bubble's after it ended")
	}
}

// sharedWG is a heap WaitGroup that every execution adds to, as go-zero's
// process-wide shutdown listeners (sweep fresh28): the second execution's
// real Add was a fatal error ("WaitGroup.Add called from multiple synctest
// bubbles") that killed the process.
var sharedWG = new(sync.WaitGroup)

func TestProgSharedWaitGroup(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		WGAdd(sWG, sharedWG, 1)
		Go(sGo, func() { WGDone(sWG, sharedWG) })
		WGWait(sWG, sharedWG)
	})
}

func TestSharedWaitGroup(t *testing.T) {
	mustPass(t, "TestProgSharedWaitGroup", "pct", 20)
}
