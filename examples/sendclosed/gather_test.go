package sendclosed

import "testing"

// Job A decrements pending and is preempted before its send; job B
// decrements to zero, sends and closes; A's send panics.
// (c, v, t) = (1, 1, 2).
func TestGather(t *testing.T) {
	jobs := []func() int{
		func() int { return 1 },
		func() int { return 2 },
	}
	got := Gather(jobs)
	if len(got) != 2 || got[0]+got[1] != 3 {
		t.Errorf("Gather = %v, want 1 and 2", got)
	}
}
