// Package isstafig3 renders Figure 3 of Bindal, Bansal & Lal, "Variable and
// Thread Bounding for Systematic Testing of Multithreaded Programs"
// (ISSTA'13), in Go.
//
// RECONSTRUCTION. The figures of the paper could not be retrieved: the
// stored copies of the paper we could reach (arXiv:1207.2544 on ar5iv, the
// Microsoft Research page) yield only its abstract, which says "most
// concurrency bugs have low v (typically 1-2) and low t (typically 2-4)" and
// gives no figure. This program is written from the paper's definitions
// (c: preempting context switches, v: distinct variables at which those
// preemptions happen, t: threads whose relative order matters) to show what
// we take the figure to illustrate. The (c, v, t) below is our own analysis,
// not a quotation.
//
// What it shows: a bug that needs three threads (t = 3) although it needs
// only one preemption. Three clients compete for two licences; acquire checks
// and takes a licence in two separate critical sections. With two clients the
// limit cannot be exceeded. With three: A acquires; B passes the check and
// is preempted before taking its licence; C passes the check and takes one;
// B takes one: three licences out of two. (c, v, t) = (1, 1, 3), the
// preemption being at the lock that guards inUse.
package isstafig3

import (
	"sync"
	"testing"
)

const licences = 2

var (
	mu      sync.Mutex
	inUse   int
	granted [3]bool
)

func acquire() bool {
	mu.Lock()
	free := inUse < licences
	mu.Unlock()
	if !free {
		return false
	}
	mu.Lock() // BUG: inUse may have changed since the check
	inUse++
	mu.Unlock()
	return true
}

func TestFigure3(t *testing.T) {
	mu = sync.Mutex{}
	inUse = 0
	granted = [3]bool{}

	var wg sync.WaitGroup
	for i := range granted {
		wg.Add(1)
		go func() {
			defer wg.Done()
			granted[i] = acquire()
		}()
	}
	wg.Wait()
	if inUse > licences {
		t.Errorf("%d licences in use, only %d exist (granted: %v)", inUse, licences, granted)
	}
}
