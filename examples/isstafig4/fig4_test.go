// Package isstafig4 is Figure 4 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §2.1), in Go: "A short program with a c = 2, v = 2 bug".
//
//	a = 0, b = 0
//	Thread 1:                                | Thread 2:
//	  t1 = a;                        // 1    |   a = 1; // 2
//	  t2 = a;                        // 3    |   b = 1; // 4
//	  t3 = b;                        // 5    |   b = 0;
//	  ASSERT(t1 == t2 or t3 != 1);   // 6    |
//
// The assertion fails when thread 1 sees a change (t1 = 0, t2 = 1) and then
// reads b while it is 1. The figure's numbering shows one such order; the
// cheapest has two preemptions: thread 1 is preempted after t1 = a (counted
// against a), thread 2 writes a = 1 and b = 1 and is preempted before b = 0
// (counted against b, the variable it accessed last), thread 1 reads a and b.
// (c, v) = (2, 2), between two threads (t = 2; the paper leaves t open for
// Figures 1-4).
package isstafig4

import (
	"sync"
	"testing"
)

var a, b int

func TestFigure4(t *testing.T) {
	a, b = 0, 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // Thread 1
		defer wg.Done()
		t1 := a
		t2 := a
		t3 := b
		if !(t1 == t2 || t3 != 1) {
			t.Errorf("ASSERT(t1 == t2 or t3 != 1) failed: t1 = %d, t2 = %d, t3 = %d", t1, t2, t3)
		}
	}()
	go func() { // Thread 2
		defer wg.Done()
		a = 1
		b = 1
		b = 0
	}()
	wg.Wait()
}
