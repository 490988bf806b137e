package wgfixed

import "testing"

func TestSumParallel(t *testing.T) {
	parts := [][]int{{1, 2}, {3, 4}}
	if got := SumParallel(parts); got != 10 {
		t.Errorf("SumParallel = %d, want 10", got)
	}
}
