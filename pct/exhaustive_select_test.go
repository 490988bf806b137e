package pct

import "testing"

// selectReady runs a select over two buffered channels, of which those in
// ready hold a value; it fails when the select takes case failOn.
func selectReady(t *testing.T, ready [2]bool, failOn int) {
	RunTest(t, func(t *testing.T) {
		a, b := make(chan int, 1), make(chan int, 1)
		if ready[0] {
			a <- 1
		}
		if ready[1] {
			b <- 2
		}
		got := Select(sSelect, 2, true, func(i int) bool {
			ch := a
			if i == 1 {
				ch = b
			}
			select {
			case <-ch:
				return true
			default:
				return false
			}
		}, func() int { return -1 }, nil)
		if got == failOn {
			TError(sFail, t, "Errorf", "the select took case %d", got)
		}
	})
}

func TestProgSelectBothReady(t *testing.T) {
	skipNative(t)
	selectReady(t, [2]bool{true, true}, 1)
}

func TestProgSelectSecondReady(t *testing.T) {
	skipNative(t)
	selectReady(t, [2]bool{false, true}, 0)
}

// TestExhaustiveBranchesOnSelectChoices: Go takes either ready case of a
// select, so with both ready the search runs both, without a preemption
// (the second execution fails); with only case 1 ready there is nothing to
// choose: one execution, complete (a start past the case taken could take
// another case, a start before it cannot).
func TestExhaustiveBranchesOnSelectChoices(t *testing.T) {
	for _, noPrune := range []bool{false, true} {
		b, done := hunt2(t, "TestProgSelectBothReady", Spec{Name: "exhaustive", C: 1, NoPrune: noPrune})
		if b == nil || b.Kind != FailTest || b.Preemptions != 0 || b.Execution != 1 || done.Bounds[0].Executed != 2 {
			t.Errorf("noPrune=%v: bug %+v, bounds %+v; want the failure at c=0 in execution 1 of 2", noPrune, b, done.Bounds)
		}
		r := exhaustiveRun(t, "TestProgSelectSecondReady", 1, noPrune)
		if r.Executions != 1 || !r.Complete {
			t.Errorf("noPrune=%v: %d executions (complete %v), want 1: the search branched where no other case is ready", noPrune, r.Executions, r.Complete)
		}
	}
}
