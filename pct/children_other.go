//go:build !linux

package pct

import "time"

// Elsewhere child processes are not looked for: the clock never waits.
func realNow() time.Duration  { return 0 }
func realSleep(time.Duration) {}
func hasLiveChildren() bool   { return false }
