//go:build unix

package pct

import "syscall"

// On Unix the machinery is started with SIGUSR2, which tests rarely use
// (Interrupt, the portable choice, would be Go's to handle, not the
// default's, for the instant between Notify and Stop).
func init() { prestartSignal = syscall.SIGUSR2 }
