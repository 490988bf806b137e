package mapfixed

import "testing"

func TestCountWords(t *testing.T) {
	counts := CountWords([][]string{{"go", "pct"}, {"go"}})
	if counts["go"] != 2 || counts["pct"] != 1 {
		t.Errorf("counts = %v, want go:2 pct:1", counts)
	}
}
