//go:build amd64 || arm64

package pct

// getg returns the address of the calling goroutine's runtime descriptor. It
// identifies the caller cheaply (one load): the scheduler compares it with the
// token holder's on every scheduling point.
func getg() uintptr

// stackOfG returns the calling goroutine's stack bounds, lo and hi, where
// its runtime descriptor keeps them: the runtime's g begins with them
// (runtime/runtime2.go: "offset known to runtime/cgo"), and updates them
// when the stack moves.
func stackOfG() *[2]uintptr
