// Package isstafig2 renders Figure 2 of Bindal, Bansal & Lal, "Variable and
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
// What it shows: thread bounding. Four workers share a lazily created
// connection; the check-then-act in getConn lets two of them create one each.
// Only the order of those two workers matters (t = 2) whatever the number of
// workers n; a search that fixes the order of the other n-2 threads loses
// nothing. (c, v, t) = (1, 1, 2): one worker is preempted between reading
// conn (nil) and writing it.
package isstafig2

import (
	"sync"
	"testing"
)

const workers = 4

type Conn struct{ owner int }

var (
	conn *Conn          // created by the first worker that needs it
	got  [workers]*Conn // the connection each worker used
)

func getConn(worker int) *Conn {
	c := conn
	if c == nil {
		c = &Conn{owner: worker}
		conn = c // BUG: another worker may have created one since the check
	}
	return c
}

func TestFigure2(t *testing.T) {
	conn = nil
	got = [workers]*Conn{}

	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = getConn(i)
		}()
	}
	wg.Wait()
	for i := 1; i < workers; i++ {
		if got[i] != got[0] {
			t.Errorf("workers 0 and %d use different connections (created by %d and %d)",
				i, got[0].owner, got[i].owner)
		}
	}
}
