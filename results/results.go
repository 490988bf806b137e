package results

import (
	"time"

	"github.com/gopct/gopct/pct"
)

// Summary is the outcome of hunting one test; its JSON form is the last line
// of `gopct hunt -json`.
type Summary struct {
	Test       string  `json:"test"`
	Package    string  `json:"package"`
	Strategy   string  `json:"strategy"`
	Seed       uint64  `json:"seed"`
	Executions int     `json:"executions"`
	Seconds    float64 `json:"seconds"`
	Mode       string  `json:"mode"`                // how executions ran: "bubble" (testing/synctest)
	Abandoned  int     `json:"abandoned,omitempty"` // executions stopped at the step limit (-max-steps)
	Bug        *Bug    `json:"bug"`
}

// Bug is a failing execution with everything needed to understand and
// replay it.
type Bug struct {
	Kind        string           `json:"kind"`
	Message     string           `json:"message"`
	At          string           `json:"at,omitempty"`
	Goroutine   string           `json:"goroutine,omitempty"`
	Execution   int              `json:"execution"`
	Preemptions int              `json:"preemptions"`
	Steps       int              `json:"steps"`
	Replay      string           `json:"replay"`
	Trace       []pct.TraceEvent `json:"trace"`
	Goroutines  []pct.GInfo      `json:"goroutines"`
	Messages    []string         `json:"messages,omitempty"`
	Stack       string           `json:"stack,omitempty"`
	// EarlyTimers is how often the interleaving let a timer fire while a
	// goroutine could still run, and Delay how far the clock jumped then:
	// the failure needs goroutines to be delayed that long.
	EarlyTimers int           `json:"earlyTimers,omitempty"`
	Delay       time.Duration `json:"delay,omitempty"`
}

// ReplayResult is the outcome of `gopct replay`.
type ReplayResult struct {
	Test     string `json:"test"`
	Package  string `json:"package"`
	Diverged string `json:"diverged,omitempty"` // why the run left the recorded schedule
	Bug      *Bug   `json:"bug"`                // the failure reproduced, or nil if the run passed
}
