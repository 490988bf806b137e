// Package isstafig1 renders Figure 1 of Bindal, Bansal & Lal, "Variable and
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
// What it shows: a bug that needs two preemptions (c = 2) but both at
// accesses to one variable (v = 1), while the threads also make many
// accesses to another, correctly synchronised shared variable. Variable
// bounding with V = {mode} places change points only at the 4 accesses to
// mode instead of at every access. (c, v, t) = (2, 1, 2).
//
// The observer reads mode twice and expects the same value; the maintainer
// sets mode to 1 and restores it. The reads differ only if the maintainer's
// first write falls between the two reads and its second write after them:
// observer preempted before its second read of mode, maintainer preempted
// before its restoring write to mode.
package isstafig1

import (
	"sync"
	"sync/atomic"
	"testing"
)

var (
	mode          int          // the variable of the bug
	first, second int          // what the observer saw
	stats         atomic.Int64 // shared, synchronised, not part of the bug
)

func maintain() {
	mode = 1
	for range 4 {
		stats.Add(1)
	}
	mode = 0
}

func observe() {
	first = mode
	for range 4 {
		stats.Add(1)
	}
	second = mode
}

func TestFigure1(t *testing.T) {
	mode, first, second = 0, 0, 0
	stats.Store(0)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); observe() }()
	go func() { defer wg.Done(); maintain() }()
	wg.Wait()
	if first != second {
		t.Errorf("observer saw mode change from %d to %d", first, second)
	}
}
