// Package isstafig8 renders Figure 8 of Bindal, Bansal & Lal, "Variable and
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
// What it shows: a bug on a heap variable allocated in a loop, the case for
// which the paper names heap variables by allocation site and iteration
// count (the loop-iteration bound l). The producer pushes nodes onto a list
// and publishes each node before initialising it; a consumer that reads the
// head in that window sees a node with value 0. The producer is preempted
// after "head = n", before writing n.val: one preemption at node #i of the
// allocation site (l = 1 suffices, the first node already shows it).
// (c, v, t) = (1, 1, 2).
package isstafig8

import (
	"sync"
	"testing"
)

type node struct {
	val  int
	next *node
}

var (
	head *node
	seen []int // values the consumer found at the head
)

func produce() {
	for i := 1; i <= 3; i++ {
		n := &node{next: head}
		head = n // BUG: published before it is initialised
		n.val = i
	}
}

func consume() {
	for range 3 {
		if h := head; h != nil {
			seen = append(seen, h.val)
		}
	}
}

func TestFigure8(t *testing.T) {
	head, seen = nil, nil

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); produce() }()
	go func() { defer wg.Done(); consume() }()
	wg.Wait()
	for _, v := range seen {
		if v == 0 {
			t.Errorf("consumer saw an uninitialised node (values seen: %v)", seen)
			break
		}
	}
}
