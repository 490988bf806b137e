// Package isstafig10 renders Figure 10 of Bindal, Bansal & Lal, "Variable
// and Thread Bounding for Systematic Testing of Multithreaded Programs"
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
// What it shows: a lost wake-up, a bug that blocks rather than corrupts.
// The waiter tests the ready flag without holding the lock, then waits on
// the condition variable. If it is preempted between the test and the Wait,
// the publisher sets the flag and broadcasts to nobody; the waiter then
// waits for ever. (c, v, t) = (1, 1, 2), the preemption being at q.mu.
package isstafig10

import (
	"sync"
	"testing"
)

type queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
	data  int
}

var q *queue

func await() int {
	if !q.ready { // BUG: tested without holding q.mu, and not in a loop
		q.mu.Lock()
		q.cond.Wait()
		q.mu.Unlock()
	}
	return q.data
}

func publish(v int) {
	q.mu.Lock()
	q.data = v
	q.ready = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func TestFigure10(t *testing.T) {
	q = &queue{}
	q.cond = sync.NewCond(&q.mu)

	var wg sync.WaitGroup
	wg.Add(2)
	var got int
	go func() { defer wg.Done(); got = await() }()
	go func() { defer wg.Done(); publish(7) }()
	wg.Wait()
	if got != 7 {
		t.Errorf("await() = %d, want 7", got)
	}
}
