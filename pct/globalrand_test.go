package pct

import (
	"testing"
	"time"
)

// initSeed is a seed read from the real clock while the package
// initialises, as rand.NewSource(time.Now().UnixNano()) in a package-level
// variable becomes once instrumented.
var initSeed = TimeSeed(time.Now().UnixNano())

func TestProgInitSeed(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) { TError(sFail, t, "Errorf", "seed %d", initSeed) })
}

// TestTimeSeedAtInitIsTheHunts: in a worker, a clock-read seed taken at init
// is the same in every process of a hunt with the same seed (a replay's
// fresh process draws what the hunt drew), and another hunt seed gives
// another one.
func TestTimeSeedAtInitIsTheHunts(t *testing.T) {
	a, _ := hunt(t, "TestProgInitSeed", "pct", 1, 1)
	b, _ := hunt(t, "TestProgInitSeed", "pct", 1, 1)
	c, _ := hunt(t, "TestProgInitSeed", "pct", 2, 1)
	if a == nil || b == nil || c == nil {
		t.Fatal("no report")
	}
	if a.Message != b.Message || a.Message == c.Message {
		t.Fatalf("seed 1: %q and %q; seed 2: %q", a.Message, b.Message, c.Message)
	}
}
