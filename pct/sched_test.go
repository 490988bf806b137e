package pct

import "testing"

func TestLostUpdateFound(t *testing.T) {
	for _, s := range []string{"pct", "random"} {
		b := mustFind(t, "TestProgLostUpdate", s, 1, 200, "fail")
		if b.Message != "counter = 1, want 2" {
			t.Errorf("%s: message %q", s, b.Message)
		}
	}
}

func TestLockedCounterPasses(t *testing.T) {
	mustPass(t, "TestProgLockedCounter", "pct", 300)
	mustPass(t, "TestProgLockedCounter", "random", 300)
}

func TestABBADeadlock(t *testing.T)   { mustFind(t, "TestProgABBA", "pct", 1, 300, "deadlock") }
func TestRWRDeadlock(t *testing.T)    { mustFind(t, "TestProgRWR", "pct", 1, 300, "deadlock") }
func TestDoubleLock(t *testing.T)     { mustFind(t, "TestProgDoubleLock", "pct", 1, 10, "deadlock") }
func TestTimeoutLeak(t *testing.T)    { mustFind(t, "TestProgTimeoutLeak", "pct", 1, 300, "leak") }
func TestSendOnClosed(t *testing.T)   { mustFind(t, "TestProgSendClosed", "pct", 1, 300, "panic") }
func TestFatalGoroutine(t *testing.T) { mustFind(t, "TestProgFatalInGoroutine", "pct", 1, 300, "fail") }
func TestMapWrites(t *testing.T)      { mustFind(t, "TestProgMapWrites", "pct", 1, 300, "fatal") }
func TestSleepersPass(t *testing.T)   { mustPass(t, "TestProgSleepers", "random", 200) }
func TestOnceCondPass(t *testing.T)   { mustPass(t, "TestProgOnceCond", "random", 300) }
