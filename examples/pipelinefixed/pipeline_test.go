package pipelinefixed

import "testing"

func TestSumOfSquares(t *testing.T) {
	if got := SumOfSquares(1, 2, 3, 4); got != 30 {
		t.Errorf("SumOfSquares(1, 2, 3, 4) = %d, want 30", got)
	}
}
