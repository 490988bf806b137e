package mapwrites

import "testing"

// (c, v, t) = (1, 1, 2): preempt one goroutine between reading counts["go"]
// and writing it back.
func TestCountWords(t *testing.T) {
	counts := CountWords([][]string{{"go"}, {"go"}})
	if counts["go"] != 2 {
		t.Errorf(`counts["go"] = %d, want 2`, counts["go"])
	}
}
