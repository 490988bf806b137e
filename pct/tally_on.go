//go:build !race

package pct

// tallyOn: Load and Store count accesses inline (tally.go).
const tallyOn = true
