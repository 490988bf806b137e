package pct

import "testing"

// TestTraceKeepsHeadAndTail: past maxTrace switches the trace keeps its
// first headTrace and its last maxTrace-headTrace, in order, and counts
// the switches between them.
func TestTraceKeepsHeadAndTail(t *testing.T) {
	for _, n := range []int{10, maxTrace, maxTrace + 1, 5000, 5001} {
		r := &recorder{}
		for i := 0; i < n; i++ {
			r.keep(switchRec{step: i, from: noG})
		}
		dropped := max(0, n-maxTrace)
		gap := r.traceGap()
		kept := r.kept()
		if len(kept) != min(n, maxTrace) || r.untraced != dropped {
			t.Fatalf("n=%d: kept %d, untraced %d; want %d, %d", n, len(kept), r.untraced, min(n, maxTrace), dropped)
		}
		if (dropped > 0) != (gap == headTrace) || (dropped == 0) != (gap == 0) {
			t.Fatalf("n=%d: gap %d", n, gap)
		}
		for i, ev := range kept {
			want := i
			if dropped > 0 && i >= headTrace {
				want = i + dropped
			}
			if ev.Step != want {
				t.Fatalf("n=%d: kept[%d] is step %d, want %d", n, i, ev.Step, want)
			}
		}
	}
}
