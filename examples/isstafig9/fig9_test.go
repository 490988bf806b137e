// Package isstafig9 renders Figure 9 of Bindal, Bansal & Lal, "Variable and
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
// What it shows: a deadlock that needs three threads and two preemptions at
// two different locks. Three philosophers each take their left fork, then
// their right one. The cycle closes only if each holds its left fork:
// philosopher 0 preempted after taking fork 0 (before fork 1), philosopher 1
// preempted after taking fork 1 (before fork 2); philosopher 2 takes fork 2
// and blocks on fork 0, and the others block in turn (blocked switches are
// not preemptions). (c, v, t) = (2, 2, 3), V = {fork 1, fork 2}.
package isstafig9

import (
	"sync"
	"testing"
)

const n = 3

var (
	forks *[n]sync.Mutex
	meals [n]int
)

func dine(i int) {
	left, right := &forks[i], &forks[(i+1)%n]
	left.Lock()
	right.Lock() // BUG: everyone takes the left fork first: a cycle of waits
	meals[i]++
	right.Unlock()
	left.Unlock()
}

func TestFigure9(t *testing.T) {
	forks = new([n]sync.Mutex)
	meals = [n]int{}

	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); dine(i) }()
	}
	wg.Wait()
	for i, m := range meals {
		if m != 1 {
			t.Errorf("philosopher %d ate %d times, want 1", i, m)
		}
	}
}
