package pct

import (
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Loop-iteration bounding of heap variables (ISSTA'13 §2.4, Figure 5),
// Config.Loop = L > 0. Without it a heap variable is its allocation site:
// every object allocated there is one variable. With it an object is named
// by its allocation site, the call stack of the allocation, and its
// loop-iteration number: how many objects the site allocated before it
// with the same call stack in the execution (the paper's "type" of a
// variable is its allocation call stack; recursion at different depths
// gives different stacks), capped at L-1: the first L-1 objects of a
// (site, stack) are a variable each and the later ones share one. Names
// read "file:line:col#i@s", s a short hash of the stack (the same in every
// process of one build). The paper drops the objects past the bound from
// Q; merging them keeps every access in some variable.
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
	allocIndex  map[uint64]int  // per (site, call stack): objects allocated in this execution
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
	allocIndex = map[uint64]int{}
	allocMu.Unlock()
}

// stackFrames bounds the call stack that names an allocation: deeper
// recursion than this shares names (its iterations count as a loop's).
const stackFrames = 64

// objectName names an object allocated at site.
func objectName(site int) string {
	if loopBound == 0 {
		return sitePos(site)
	}
	var pcs [stackFrames]uintptr
	key := uint64(site)
	for _, pc := range pcs[:runtime.Callers(3, pcs[:])] {
		key = mix(key, uint64(pc))
	}
	allocMu.Lock()
	n := allocIndex[key]
	allocIndex[key] = n + 1
	allocMu.Unlock()
	return sitePos(site) + "#" + strconv.Itoa(min(n, loopBound-1)) + "@" + strconv.FormatUint(key>>40, 16)
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
