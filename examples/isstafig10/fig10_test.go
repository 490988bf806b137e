// Package isstafig10 is Figure 10 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §4), in Go: "A short program with a c = 2, v = 2, t = 3 bug".
//
//	a = 0
//	Thread 1:                      | Thread 2:  | Thread 3:
//	  t1 = a;                      |   a++;     |   b++;
//	  t2 = a;                      |            |
//	  t3 = b;                      |            |
//	  t4 = b;                      |            |
//	  ASSERT(t1==t2 or t3==t4);    |            |
//
// (b starts at 0 too.) Thread 1 is preempted after t1 = a (counted against
// a) and thread 2 increments a; thread 1 is preempted again after t3 = b
// (counted against b) and thread 3 increments b. Two preemptions at two
// variables, with three threads ordered: (c, v, t) = (2, 2, 3).
package isstafig10

import (
	"sync"
	"testing"
)

var a, b int

func TestFigure10(t *testing.T) {
	a, b = 0, 0
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // Thread 1
		defer wg.Done()
		t1 := a
		t2 := a
		t3 := b
		t4 := b
		if !(t1 == t2 || t3 == t4) {
			t.Errorf("ASSERT(t1==t2 or t3==t4) failed: t1 = %d, t2 = %d, t3 = %d, t4 = %d", t1, t2, t3, t4)
		}
	}()
	go func() { // Thread 2
		defer wg.Done()
		a++
	}()
	go func() { // Thread 3
		defer wg.Done()
		b++
	}()
	wg.Wait()
}
