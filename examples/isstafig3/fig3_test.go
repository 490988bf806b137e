// Package isstafig3 is Figure 3 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §2.1), in Go: "A short program with a c = 2, v = 1 bug".
//
//	a = 0
//	Thread 1:                    | Thread 2:
//	  t1 = a;            // 2    |   a = 1; // 1
//	  t2 = a;            // 4    |   a = 0; // 3
//	  ASSERT(t1 == t2);  // 5    |
//
// Thread 2 runs first (a free choice) and is preempted after a = 1; thread 1
// reads 1 and is preempted; thread 2 restores 0 and ends; thread 1 reads 0.
// Both preemptions are counted against a: (c, v) = (2, 1), between two
// threads (t = 2; the paper leaves t open for Figures 1-4).
package isstafig3

import (
	"sync"
	"testing"
)

var a int

func TestFigure3(t *testing.T) {
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
		a = 1
		a = 0
	}()
	wg.Wait()
}
