package results

import (
	"github.com/gopct/gopct/pct"
)

// Summary is the outcome of hunting one test; its JSON form is the last line
// of `gopct hunt -json`.
type Summary struct {
	Test       string   `json:"test"`
	Package    string   `json:"package"`
	Strategy   string   `json:"strategy"` // the strategy's name; Spec has its parameters
	Spec       pct.Spec `json:"spec"`
	Seed       uint64   `json:"seed"`
	Executions int      `json:"executions"`
	Seconds    float64  `json:"seconds"`
	Mode       string   `json:"mode"`                // how executions ran: "bubble" (testing/synctest)
	Finished   int      `json:"finished"`            // executions that ran to their end
	Abandoned  int      `json:"abandoned,omitempty"` // executions given up (too long, or pruned)
	Bug        *Bug     `json:"bug"`
	// Exhaustive search: per-bound counts, and whether the search explored
	// every schedule within its bounds.
	Bounds   []pct.BoundStats `json:"bounds,omitempty"`
	Complete bool             `json:"complete,omitempty"`
	// Unmanaged: executions in which goroutines gopct does not manage
	// (started by code it does not instrument) ran instrumented code,
	// unscheduled; UnmanagedAt: where the first such operation ran.
	Unmanaged   int    `json:"unmanaged,omitempty"`
	UnmanagedAt string `json:"unmanagedAt,omitempty"`
}

// Bug is a failing execution with everything needed to understand and
// replay it: the runtime's report (the shared record schema, pct.BugReport)
// and the replay token the campaign made for it.
type Bug struct {
	pct.BugReport
	Replay string `json:"replay"`
	// Variables are the distinct variables at the schedule's preemptions
	// (each counted against the object the preempted goroutine accessed
	// last, as the ISSTA paper counts): v is their number. Threads
	// estimates t: the goroutines its preemptions (or, without any, its
	// switches) involve.
	Variables []string `json:"variables"`
	Threads   int      `json:"threads"`
}

// ReplayResult is the outcome of `gopct replay`.
type ReplayResult struct {
	Test     string `json:"test"`
	Package  string `json:"package"`
	Diverged string `json:"diverged,omitempty"` // why the run left the recorded schedule
	Bug      *Bug   `json:"bug"`                // the failure reproduced, or nil if the run passed
}

// Inconclusive says whether too few executions ran to their end for a
// clean result to mean anything: fewer than half of them. A summary with a
// bug is never inconclusive.
func (s *Summary) Inconclusive() bool {
	return s.Bug == nil && s.Executions > 0 && 2*s.Finished < s.Executions
}
