package campaign

import "testing"

// TestSameMessage: a replay's failure is the recording's when the messages
// differ only in what changes from one process to the next.
func TestSameMessage(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"counter = 1, want 2", "counter = 1, want 2", true},
		{"counter = 1, want 2", "counter = 0, want 2", false},
		{"0x2043a8b833e4 is not nil", "0x1a0e4c0010f0 is not nil", true},
		{"open /tmp/TestStore2817364512/001/db: file exists", "open /tmp/TestStore99182736/001/db: file exists", true},
		{"open /tmp/TestStore2817364512/001/db: file exists", "open /tmp/TestStore2817364512/002/db: file exists", false},
		{"read /tmp/TestKV_v2123456789/001/x", "read /tmp/TestKV_v2987654321/001/x", true},
		{"id 1234567/ of 2", "id 7654321/ of 2", false},
		{"found unexpected goroutines:\n[Goroutine 292 in state chan send ...\ngoroutine 292 [chan send]:\ncreated by x in goroutine 289",
			"found unexpected goroutines:\n[Goroutine 294 in state chan send ...\ngoroutine 294 [chan send]:\ncreated by x in goroutine 288", true},
		{"found 2 goroutines", "found 3 goroutines", false},
	} {
		if got := sameMessage(c.a, c.b); got != c.same {
			t.Errorf("sameMessage(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
