//go:build !go1.26

package pct

import "testing"

// seedCrypto does nothing before Go 1.26, which has no
// testing/cryptotest.SetGlobalRandom: crypto/rand stays random, and a
// schedule that depends on its draws may not replay (cryptorand.go).
func seedCrypto(*testing.T, uint64) {}
