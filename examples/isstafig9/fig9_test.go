// Package isstafig9 is Figure 9 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §4), in Go: "A short program with a c = 1, v = 1, t = 3 bug".
//
//	a = 0
//	Thread 1:               | Thread 2:  | Thread 3:
//	  t1 = a;               |   a++;     |   a++;
//	  t2 = a;               |            |
//	  ASSERT(t1 ≤ t2+1);    |            |
//
// As printed, the assertion cannot fail: a only grows, so t1 ≤ t2. The bug
// the figure means is the mirror image, which this program checks: a grows
// by 2 between thread 1's reads (t2 ≤ t1+1 fails). Thread 1 is preempted
// after t1 = a (counted against a); threads 2 and 3 both increment a before
// it reads again. One preemption at one variable, and the order of three
// threads: (c, v, t) = (1, 1, 3).
package isstafig9

import (
	"sync"
	"testing"
)

var a int

func TestFigure9(t *testing.T) {
	a = 0
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // Thread 1
		defer wg.Done()
		t1 := a
		t2 := a
		if t2 > t1+1 {
			t.Errorf("a grew by more than 1 between two reads: t1 = %d, t2 = %d", t1, t2)
		}
	}()
	go func() { // Thread 2
		defer wg.Done()
		a++
	}()
	go func() { // Thread 3
		defer wg.Done()
		a++
	}()
	wg.Wait()
}
