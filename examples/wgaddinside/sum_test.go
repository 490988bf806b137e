package wgaddinside

import "testing"

// The test goroutine reaches Wait before a worker has called Add (the sleep's
// timer fires while the worker is still runnable): Wait returns early and the
// total misses that worker's part. (c, v, t) = (1, 1, 2).
func TestSumParallel(t *testing.T) {
	parts := [][]int{{1, 2}, {3, 4}}
	if got := SumParallel(parts); got != 10 {
		t.Errorf("SumParallel = %d, want 10", got)
	}
}
