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
	Abandoned  int      `json:"abandoned,omitempty"` // executions stopped at the step limit (-max-steps)
	Bug        *Bug     `json:"bug"`
}

// Bug is a failing execution with everything needed to understand and
// replay it: the runtime's report (the shared record schema, pct.BugReport)
// and the replay token the campaign made for it.
type Bug struct {
	pct.BugReport
	Replay string `json:"replay"`
}

// ReplayResult is the outcome of `gopct replay`.
type ReplayResult struct {
	Test     string `json:"test"`
	Package  string `json:"package"`
	Diverged string `json:"diverged,omitempty"` // why the run left the recorded schedule
	Bug      *Bug   `json:"bug"`                // the failure reproduced, or nil if the run passed
}
