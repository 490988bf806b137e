package useinit

import "testing"

// The set-up goroutine is preempted right after close(ready): the reader
// proceeds and reads the empty name. (c, v, t) = (1, 1, 2).
func TestName(t *testing.T) {
	s := Start()
	if got := s.Name(); got != "payments" {
		t.Errorf("Name() = %q, want %q", got, "payments")
	}
}
