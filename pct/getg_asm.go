//go:build amd64 || arm64

package pct

// getg returns the address of the calling goroutine's runtime descriptor. It
// identifies the caller cheaply (one load): the scheduler compares it with the
// token holder's on every scheduling point.
func getg() uintptr
