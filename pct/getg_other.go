//go:build !amd64 && !arm64

package pct

import (
	"runtime"
	"strconv"
	"strings"
)

// getg returns the goroutine id parsed from the stack header. It is slow
// (about a microsecond) and only used on architectures without the
// assembly version.
func getg() uintptr {
	var buf [64]byte
	s := string(buf[:runtime.Stack(buf[:], false)])
	s = strings.TrimPrefix(s, "goroutine ")
	if i := strings.IndexByte(s, ' '); i > 0 {
		n, _ := strconv.ParseUint(s[:i], 10, 64)
		return uintptr(n)
	}
	return 0
}

// stackOfG cannot find the stack bounds without assembly: an empty range,
// which no caller runs on.
func stackOfG() *[2]uintptr { return &noStack }
