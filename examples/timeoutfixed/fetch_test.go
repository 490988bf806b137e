package timeoutfixed

import (
	"testing"
	"time"
)

// A timeout is an acceptable answer, and on that path the worker still
// finishes: no leak under any interleaving or timer firing.
func TestFetch(t *testing.T) {
	v, err := Fetch(time.Second)
	if err != nil {
		t.Logf("Fetch: %v", err)
		return
	}
	if v != 42 {
		t.Errorf("Fetch() = %d, want 42", v)
	}
}
