// Package isstafig4 renders Figure 4 of Bindal, Bansal & Lal, "Variable and
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
// What it shows: a bug whose two preemptions happen at two different
// variables (c = 2, v = 2), so variable bounding with v = 1 cannot find it.
// The publisher writes a message header-first (version, then payload) but
// only once someone has subscribed. The subscriber subscribes, then reads
// version and payload; a payload older than the version that announces it is
// a torn read. It needs: subscriber preempted after subscribing, before
// reading version; publisher preempted after writing version, before writing
// payload. (c, v, t) = (2, 2, 2), V = {version, payload}. (A payload newer
// than the version is accepted, so running the whole publisher between the
// subscriber's two reads, c = 1, is not a failure.)
package isstafig4

import (
	"sync"
	"testing"
)

var (
	subscribed               bool
	version, payload         int
	seenVersion, seenPayload int
)

func publish() {
	if subscribed {
		version = 2
		payload = 2
	}
}

func subscribe() {
	subscribed = true
	seenVersion = version
	seenPayload = payload
}

func TestFigure4(t *testing.T) {
	subscribed = false
	version, payload = 1, 1
	seenVersion, seenPayload = 0, 0

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); subscribe() }()
	go func() { defer wg.Done(); publish() }()
	wg.Wait()
	if seenPayload < seenVersion {
		t.Errorf("torn read: version %d announced with payload %d", seenVersion, seenPayload)
	}
}
