package pct

import (
	"strconv"
	"strings"
	"sync"
)

// Loop-iteration bounding of heap variables (ISSTA'13 §2.4, Figure 5),
// Config.Loop = L > 0. Without it a heap variable is its allocation site:
// every object allocated there is one variable. With it the objects of an
// allocation site are named by their allocation index in the execution
// (how many objects the site allocated before them, counted from 0 at the
// start of each execution), capped at L-1: the first L-1 objects are a
// variable each ("file:line:col#0", "#1", ...) and the L-th and later share
// one ("file:line:col#L-1"; with L = 1, one variable per site, as without
// -l). The paper drops the objects past the bound from Q; merging them
// keeps every access in some variable.
//
// This is a subset of the paper's naming: the index counts per allocation
// site, not per (site, call stack), so objects allocated by one statement
// through different callers share the index sequence.
//
// In a run with Config.Objects (the instance variables of the tracked set)
// an access at an active memory site that touches a registered heap object
// of another name is not a scheduling point (nor an event): the variable
// set names objects, not only sites. Memory that no instrumented
// allocation registered stays a scheduling point.

var (
	loopBound   int             // Config.Loop; 0: heap variables are allocation sites
	loopNaming  bool            // loopBound > 0: allocations are registered (as when profiling)
	trackedObjs map[string]bool // Config.Objects; nil: no object gate
	allocMu     sync.Mutex      // unmanaged goroutines allocate concurrently
	allocIndex  map[int]int     // per allocation site: objects allocated in this execution
)

// setLoopBound configures the naming and the object gate of a run.
func setLoopBound(l int, objects []string) {
	loopBound, loopNaming = l, l > 0
	trackedObjs = nil
	if objects != nil {
		trackedObjs = map[string]bool{}
		for _, o := range objects {
			trackedObjs[o] = true
		}
	}
	resetAllocIndex()
}

// resetAllocIndex starts an execution's allocation indices from 0.
func resetAllocIndex() {
	if loopBound == 0 {
		return
	}
	allocMu.Lock()
	allocIndex = map[int]int{}
	allocMu.Unlock()
}

// objectName names an object allocated at site.
func objectName(site int) string {
	if loopBound == 0 {
		return sitePos(site)
	}
	allocMu.Lock()
	n := allocIndex[site]
	allocIndex[site] = n + 1
	allocMu.Unlock()
	return sitePos(site) + "#" + strconv.Itoa(min(n, loopBound-1))
}

// untracked says whether address a lies in a registered heap object that
// the object gate leaves out.
func untracked(a uintptr) bool {
	if trackedObjs == nil {
		return false
	}
	o, ok := heap.find(a)
	return ok && strings.Contains(o.name, "#") && !trackedObjs[o.name]
}
