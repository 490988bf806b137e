package pct

import (
	"runtime"
	"strconv"
	"strings"
)

// Goroutines gopct does not manage. Code outside the instrumented modules
// may start goroutines (net/http's server runs each handler on one); when
// they run instrumented code (the user's handler), its operations run
// natively, unscheduled: their interleavings are not explored, and a bug
// that needs them is not found. gopct cannot manage them, but it says so:
// each execution counts such operations, and hunts report in how many
// executions they happened and where the first one ran.

// noteUnmanaged records an instrumented operation on an unmanaged
// goroutine. Called concurrently with the token holder: atomics only.
func (e *execution) noteUnmanaged() {
	if e.unmanaged.Add(1) != 1 {
		return
	}
	pos := callerPosition()
	e.unmanagedAt.Store(&pos)
}

// callerPosition is the first frame of the caller outside gopct's runtime
// and the standard library, "file:line".
func callerPosition() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	goroot := runtime.GOROOT()
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "gopct.invalid/rt.") && (goroot == "" || !strings.HasPrefix(f.File, goroot)) && f.File != "" {
			return f.File + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}

// unmanagedTally accumulates, over a worker's executions, those in which
// unmanaged goroutines ran instrumented code.
type unmanagedTally struct {
	executions int
	at         string
}

func (u *unmanagedTally) add(e *execution) {
	if e.unmanaged.Load() == 0 {
		return
	}
	u.executions++
	if p := e.unmanagedAt.Load(); p != nil && u.at == "" {
		u.at = *p
	}
}
