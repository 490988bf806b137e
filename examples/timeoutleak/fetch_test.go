package timeoutleak

import (
	"testing"
	"time"
)

// A timeout is an acceptable answer; the bug is the goroutine it leaves
// behind. Natively the worker answers in microseconds and the 50 ms timeout
// never fires. Under gopct the timer may fire while the worker is still
// runnable; the test then returns with the worker blocked on its send: a
// leak. (c, v, t) = (1, 1, 2).
func TestFetch(t *testing.T) {
	v, err := Fetch(50 * time.Millisecond)
	if err != nil {
		t.Logf("Fetch: %v", err)
		return
	}
	if v != 42 {
		t.Errorf("Fetch() = %d, want 42", v)
	}
}
