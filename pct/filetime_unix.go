//go:build unix

package pct

import (
	"io/fs"
	"syscall"
)

// kernelStat says whether fi describes a file of the operating system, whose
// times the kernel's clock stamped.
func kernelStat(fi fs.FileInfo) bool {
	_, ok := fi.Sys().(*syscall.Stat_t)
	return ok
}
