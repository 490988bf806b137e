//go:build unix

package pct

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used: the
// benchmarks' native baselines measure CPU, as their gopct side does, so
// that other processes on a loaded machine do not count.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
