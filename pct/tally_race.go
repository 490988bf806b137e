//go:build race

package pct

// tallyOn is false under Go's race detector (-gorace): tally, written by
// every goroutine that makes a gated access, would be reported as a race
// (tally.go).
const tallyOn = false
