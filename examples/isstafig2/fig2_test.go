// Package isstafig2 is Figure 2 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §2.1), in Go: "A short program with a c = 1, v = 1 bug".
//
//	a = 0
//	Thread 1:                    | Thread 2:
//	  t1 = a;            // 1    |   a++; // 2
//	  t2 = a;            // 3    |
//	  ASSERT(t1 == t2);  // 4    |
//
// Thread 1 is preempted after reading a (the preemption is counted against
// a, the variable it accessed last), thread 2 increments a, thread 1 reads
// it again: (c, v) = (1, 1), between two threads (t = 2; the paper leaves t
// open for Figures 1-4).
package isstafig2

import (
	"sync"
	"testing"
)

var a int

func TestFigure2(t *testing.T) {
	a = 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // Thread 1
		defer wg.Done()
		t1 := a
		t2 := a
		if t1 != t2 {
			t.Errorf("ASSERT(t1 == t2) failed: t1 = %d, t2 = %d", t1, t2)
		}
	}()
	go func() { // Thread 2
		defer wg.Done()
		a++
	}()
	wg.Wait()
}
