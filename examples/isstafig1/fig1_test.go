// Package isstafig1 is Figure 1 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §2.1), in Go: "A short program with a c = 0, v = 0 bug".
//
//	a = 0
//	Thread 1:                 | Thread 2:
//	  ASSERT(a == 0); // 2    |   a++; // 1
//
// The comments give the failing order: thread 2 runs to its end, then thread
// 1. No preemption is needed (the choice of which thread runs when the test
// goroutine waits is free), so (c, v) = (0, 0); the order of the two threads
// is the constraint, t = 2 (the paper leaves t open for Figures 1-4).
//
// The threads are started in reverse order (thread 2 first) only so that
// natively, where the goroutine started last usually runs first, the test
// almost always passes; under gopct the order is the scheduler's choice.
package isstafig1

import (
	"sync"
	"testing"
)

var a int

func TestFigure1(t *testing.T) {
	a = 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // Thread 2
		defer wg.Done()
		a++
	}()
	go func() { // Thread 1
		defer wg.Done()
		if a != 0 {
			t.Errorf("ASSERT(a == 0) failed: a = %d", a)
		}
	}()
	wg.Wait()
}
