//go:build !unix

package pct

import "time"

var processStart = time.Now()

// processCPU falls back to the wall time since the process started where
// rusage is not available.
func processCPU() time.Duration { return time.Since(processStart) }
