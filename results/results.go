package results

import (
	"time"

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
	Coverage []CoveragePoint  `json:"coverage,omitempty"`
	// Unmanaged: executions in which goroutines gopct does not manage
	// (started by code it does not instrument) ran instrumented code,
	// unscheduled; UnmanagedAt: where the first such operation ran.
	Unmanaged   int    `json:"unmanaged,omitempty"`
	UnmanagedAt string `json:"unmanagedAt,omitempty"`
	// HeldTimer: executions were given up while a timer this far off
	// waited, which -max-delay kept from firing as goroutines ran
	// (pct/heldtimer.go): raising -max-delay, not -max-steps, lets it fire.
	HeldTimer time.Duration `json:"heldTimer,omitempty"`
	// HeldNative: executions were given up because the token holder
	// blocked inside code gopct does not instrument, here, while
	// goroutines waited past -max-delay (pct/holdtime.go).
	HeldNative string `json:"heldNative,omitempty"`
	// Fresh: each execution ran in a process of its own, because state
	// the test left in its package broke the next execution of the same
	// process, or because it failed only while other worker processes ran
	// (then one process at a time; campaign/repeat.go).
	Fresh bool `json:"fresh,omitempty"`

	// The campaign's shape: execution indices [First, Iters) in chunks of
	// Chunk (0: not chunked), run by Workers processes; Shard of Shards
	// when the chunks were split over several runs (gopct merge joins them).
	Iters   int `json:"iters,omitempty"`
	First   int `json:"first,omitempty"`
	Chunk   int `json:"chunk,omitempty"`
	Workers int `json:"workers,omitempty"`
	Shard   int `json:"shard,omitempty"`
	Shards  int `json:"shards,omitempty"`
	// A checkpoint is written while a hunt runs: Chunks ended without a
	// failure. A resumed run skips them; reports ignore checkpoints.
	Checkpoint bool  `json:"checkpoint,omitempty"`
	Chunks     []int `json:"chunks,omitempty"`
	// Resumed counts the executions (in Executions) an earlier,
	// interrupted run did: their chunks were not run again.
	Resumed int `json:"resumed,omitempty"`
	// Deaths are worker processes that died in an execution whose replay
	// did not die (the machine killed them: memory pressure, a signal):
	// not bugs; each worker was replaced and its chunk run again.
	Deaths []Death `json:"deaths,omitempty"`
	// CPUSeconds is the CPU time (user and system) of the worker
	// processes: against Seconds, how busy the machine let them be.
	CPUSeconds float64 `json:"cpuSeconds,omitempty"`
}

// Death is a worker process's death that its replay did not reproduce.
type Death struct {
	Execution int    `json:"execution"`
	Message   string `json:"message"`
	Replay    string `json:"replay"`
}

// CoveragePoint is one point of a coverage curve: the distinct
// happens-before classes seen in the first Executions executions.
type CoveragePoint struct {
	Executions int `json:"executions"`
	Classes    int `json:"classes"`
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
	// ReplayCheck is how the replay token fared when the hunt replayed it
	// in a fresh process before reporting, as gopct replay does:
	// "reproduced", "diverged: WHY", "passed" or "not checked: WHY" (""
	// when the hunt does not check, as explore and classify).
	ReplayCheck string `json:"replayCheck,omitempty"`
}

// ReplayReproduced is Bug.ReplayCheck of a token that reproduced its failure.
const ReplayReproduced = "reproduced"

// ReplayResult is the outcome of `gopct replay`.
type ReplayResult struct {
	Test     string `json:"test"`
	Package  string `json:"package"`
	Diverged string `json:"diverged,omitempty"` // why the run left the recorded schedule
	Bug      *Bug   `json:"bug"`                // the failure reproduced, or nil if the run passed
	// Drift says why the run left the recorded schedule when it still
	// failed as the recording did (same kind, same message): the failure
	// reproduced, by another path than the trace shows. A select or timer
	// in code gopct does not instrument decides what it decides in each
	// process (client-go's workqueue tests poll with apimachinery's
	// wait.Poll, whose ticker and timeout fall due at the same instant:
	// one more or one fewer poll, 8 steps, in about a third of replays).
	Drift string `json:"drift,omitempty"`
}

// Inconclusive says whether too few executions ran to their end for a
// clean result to mean anything: fewer than half of them. A summary with a
// bug is never inconclusive.
func (s *Summary) Inconclusive() bool {
	return s.Bug == nil && s.Executions > 0 && 2*s.Finished < s.Executions
}

// NothingRan says whether the hunt ended before any execution did (the
// budget went on the build, or on an execution longer than the budget):
// nothing was tested.
func (s *Summary) NothingRan() bool {
	return s.Bug == nil && s.Executions == 0 && !s.Complete
}
