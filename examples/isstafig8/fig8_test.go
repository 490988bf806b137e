// Package isstafig8 is Figure 8 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13, §4), in Go: "A short program with a c = 0, v = 0, t = 3 bug".
//
//	a = 0
//	Thread 1:  | Thread 2:  | Thread 3:
//	  a++;     |   a++;     |   ASSERT(a != 2);
//
// The assertion fails when threads 1 and 2 both run before thread 3: no
// preemption (each thread runs to its end), but an order among three
// threads, (c, v, t) = (0, 0, 3).
//
// The threads are started in reverse order (thread 3 first) only so that
// natively, where the goroutine started last usually runs first, the test
// almost always passes; under gopct the order is the scheduler's choice.
package isstafig8

import (
	"sync"
	"testing"
)

var a int

func TestFigure8(t *testing.T) {
	a = 0
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // Thread 3
		defer wg.Done()
		if a == 2 {
			t.Errorf("ASSERT(a != 2) failed")
		}
	}()
	go func() { // Thread 2
		defer wg.Done()
		a++
	}()
	go func() { // Thread 1
		defer wg.Done()
		a++
	}()
	wg.Wait()
}
