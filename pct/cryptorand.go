//go:build go1.26

package pct

import (
	"testing"
	"testing/cryptotest"
)

// crypto/rand draws from the operating system: a program whose schedule
// depends on a draw (UUIDs from google/uuid as map keys, visited in sorted
// order; an ID from rand.Text deciding which shard a goroutine locks) follows
// another path in every process, and its replays diverge. Before each
// execution the worker seeds the process's cryptographic randomness (crypto/rand
// and every implicit source of the crypto packages, captured readers
// included) from the execution's seed through testing/cryptotest, as
// math/rand's top-level functions are (globalrand.go), so a replay draws
// the same bytes. The draws are not folded into the fingerprint: the
// schedule they change is. The stream is process-wide: goroutines gopct
// does not manage draw from it too. Go 1.25 has no testing/cryptotest:
// there crypto/rand stays random (cryptorand_go125.go).

// cryptoSalt separates the execution's cryptographic stream from its
// math/rand ones.
const cryptoSalt = 0x5851f42d4c957f2d

// seedCrypto makes crypto/rand deterministic from seed for the rest of t
// (each call replaces the stream; t's cleanups restore the operating
// system's source). A test that runs in parallel cannot have it (the
// stream is process-wide): its draws stay random, as before.
func seedCrypto(t *testing.T, seed uint64) {
	defer func() { _ = recover() }() // t or an ancestor is parallel; FIPS 140 v1.0.0
	cryptotest.SetGlobalRandom(t, seed^cryptoSalt)
}
