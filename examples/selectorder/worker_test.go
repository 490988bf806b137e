package selectorder

import "testing"

// Natively the worker is parked in its select when the job is sent, takes the
// job at once and only then sees quit. If the worker is preempted between
// close(started) and the select, the job is queued and quit is closed before
// the select runs; with both cases ready it may pick quit.
// (c, v, t) = (1, 1, 2), plus the select's choice.
func TestJobBeforeStop(t *testing.T) {
	w := StartWorker()
	<-w.started
	w.jobs <- 5
	if got := w.Stop(); got != 5 {
		t.Errorf("sum = %d, want 5: a job sent before Stop was dropped", got)
	}
}
