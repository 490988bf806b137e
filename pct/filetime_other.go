//go:build !unix

package pct

import "io/fs"

// kernelStat: times are mapped only where realNow reads the real clock.
func kernelStat(fs.FileInfo) bool { return false }
