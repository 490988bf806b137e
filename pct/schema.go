package pct

import "time"

// This file is the record schema shared by every part of gopct: the runtime
// writes these records (JSON lines) from the test binary, and the campaign,
// results, bench and alias packages read them. The runtime keeps to the
// standard library, so the schema lives here and the tool side imports it.
// SchemaVersion changes whenever a field changes meaning; readers refuse
// records of another version instead of misreading them.

// SchemaVersion is the version of Config and Record.
const SchemaVersion = 2

// Config is what the gopct command passes to the test binary, as a JSON
// file named by the GOPCT_CONFIG environment variable.
type Config struct {
	Version  int     `json:"v"`
	Test     string  `json:"test"` // the test to control (exact name)
	Spec     Spec    `json:"spec"` // the strategy and its parameters
	Seed     uint64  `json:"seed"`
	Iters    int     `json:"iters"`           // executions in the campaign (all workers)
	Worker   int     `json:"worker"`          // this process runs executions Worker, Worker+Workers, ...
	Workers  int     `json:"workers"`         // number of worker processes
	First    int     `json:"first"`           // first execution index (replay: the recorded one)
	Deadline int64   `json:"deadline"`        // unix nanoseconds; 0: none
	MaxSteps int     `json:"maxSteps"`        // per execution; 0: calibrated (see progress.go)
	Timeout  int64   `json:"timeout"`         // the test's timeout in fake time, ns (go test -timeout); 0: none
	Stall    float64 `json:"stall"`           // seconds without progress before giving up
	Out      string  `json:"out"`             // JSON-lines result file
	Replay   string  `json:"replay"`          // encoded Schedule, for strategy "replay"
	Sites    []int   `json:"sites"`           // memory sites that are scheduling points (with those of Vars); both nil: all
	VarSites [][]int `json:"varSites"`        // pctvb: the access sites of each tracked variable
	Vars     []int   `json:"vars"`            // variables of Q whose memory sites are scheduling points (by the site→variable table); sync operations always are
	CrashLog string  `json:"crashLog"`        // memory-mapped decision log, read if the process dies
	Profile  bool    `json:"profile"`         // record which variable each site touches
	LazyTime bool    `json:"lazyTime"`        // timers fire only when no goroutine can run
	MaxDelay int64   `json:"maxDelay"`        // ns: a timer fires while goroutines can run only if due within this; 0: any
	Epoch    int64   `json:"epoch,omitempty"` // replay: unix ns at which the recorded execution's clock started (epoch.go)
	InitLead int64   `json:"lead,omitempty"`  // replay: ns from the recording process's start to Epoch (epoch.go); 0: 1s
	Sub      string  `json:"sub"`             // subtest filter: regexp for the names of t.Run subtests
	Race     bool    `json:"race"`            // detect data races (happens-before, race.go)
	Coverage bool    `json:"coverage"`        // hash each execution's happens-before graph (hbhash.go)
	AllBugs  bool    `json:"allBugs"`         // go on after a bug (gopct explore -all); a bug record each
	// Chunk > 0: executions come in chunks of Chunk indices from First;
	// worker w runs chunks w, w+Workers, ..., and the strategy's learned
	// state (PCT's step count k) and the step-limit calibration restart at
	// every chunk, so an execution's outcome depends on its index and the
	// seed only, never on Workers. 0: worker w runs w, w+Workers, ... and
	// keeps its state throughout.
	Chunk int `json:"chunk,omitempty"`
	// Done lists chunks (numbered from First) that ended without a failure
	// in an earlier, interrupted run of the same campaign: not run again.
	Done []int `json:"done,omitempty"`
	// Queue: the worker serves a shared work queue of an exhaustive search
	// (queue.go): tasks on descriptor 3, results on descriptor 4.
	Queue bool `json:"queue,omitempty"`
	// RandFixed seeds the program's math/rand sources alike in every
	// execution (as execution 0): an exhaustive search follows in one
	// execution a prefix recorded in another, which must draw the same.
	RandFixed bool `json:"randFixed,omitempty"`
	// Loop > 0 names heap objects by allocation site and allocation index
	// in the execution, capped at Loop-1 (loopvars.go); Objects, when not
	// nil, lists the object variables ("file:line:col#i") whose accesses
	// are scheduling points at the active memory sites.
	Loop    int      `json:"loop,omitempty"`
	Objects []string `json:"objects,omitempty"`
	// Replay only: the strategy that ran the hunt worker's executions
	// before the recorded one; they run again first (runner.rerunPrior).
	// The hunt's worker sequence is that of a Config with First PriorFirst,
	// Workers PriorStride, Chunk PriorChunk and Done PriorDone, for the
	// worker that ran First. nil or PriorStride 0: none.
	// NoFingerprint turns the path fingerprint off (BenchmarkFingerprint
	// measures its cost; replays then check switches and steps only).
	NoFingerprint bool  `json:"noFP,omitempty"`
	Prior         *Spec `json:"prior,omitempty"`
	PriorFirst    int   `json:"priorFirst,omitempty"`
	PriorStride   int   `json:"priorStride,omitempty"`
	PriorChunk    int   `json:"priorChunk,omitempty"`
	PriorDone     []int `json:"priorDone,omitempty"`
}

// RecordType says what a Record reports.
type RecordType string

// Record types.
const (
	RecBug   RecordType = "bug"   // an execution failed: Bug
	RecDone  RecordType = "done"  // the worker finished: counts, and for a replay its Outcome
	RecStall RecordType = "stall" // no progress: the test blocks where gopct cannot see
	RecError RecordType = "error" // the environment cannot run the test: Message
)

// Record is one line of the result file.
type Record struct {
	Version    int           `json:"v"`
	Type       RecordType    `json:"type"`
	Worker     int           `json:"worker"`
	Executions int           `json:"executions"`
	MaxSteps   int           `json:"maxSteps,omitempty"`
	Finished   int           `json:"finished"`            // executions that ran to their end (with or without a bug)
	Abandoned  int           `json:"abandoned,omitempty"` // executions stopped at the step limit or pruned
	Spec       *Spec         `json:"spec,omitempty"`
	Complete   bool          `json:"complete,omitempty"` // the strategy explored everything it offers
	Bounds     []BoundStats  `json:"bounds,omitempty"`   // exhaustive: per context bound
	Bug        *BugReport    `json:"bug,omitempty"`
	Diverged   string        `json:"diverged,omitempty"`
	Message    string        `json:"message,omitempty"`
	Outcome    *BugReport    `json:"outcome,omitempty"` // replay: what the run did
	Profile    []Observation `json:"profile,omitempty"` // profiling: what the sites touched
	Classes    []uint64      `json:"classes,omitempty"` // coverage: each finished execution's happens-before hash, in order
	Elapsed    time.Duration `json:"elapsed"`
	// Unmanaged: executions in which goroutines gopct does not manage ran
	// instrumented code; UnmanagedAt: where the first such operation ran.
	Unmanaged   int    `json:"unmanaged,omitempty"`
	UnmanagedAt string `json:"unmanagedAt,omitempty"`
	// AfterOthers (RecStall): the execution that stalled ran after others
	// in its process, whose leftover package state may be the cause.
	AfterOthers bool `json:"afterOthers,omitempty"`
	// Tallied: memory accesses this worker's executions made inside tally
	// batches, without entering the runtime (tally.go).
	Tallied int64 `json:"tallied,omitempty"`
	// HeldTimer: the largest -max-delay (ns) that the executions given up
	// at the step limit would have needed to let their next timer fire
	// while goroutines ran (heldtimer.go).
	HeldTimer time.Duration `json:"heldTimer,omitempty"`
	// HeldNative: where the first execution given up because its token
	// holder blocked inside code gopct does not instrument, while
	// goroutines waited past -max-delay, had stopped (holdtime.go).
	HeldNative string `json:"heldNative,omitempty"`
}

// BugReport describes a failing execution.
type BugReport struct {
	Kind        FailureKind  `json:"kind"`
	Message     string       `json:"message"`
	At          string       `json:"at,omitempty"`
	Goroutine   string       `json:"goroutine,omitempty"`
	Execution   int          `json:"execution"`
	Preemptions int          `json:"preemptions"`
	Steps       int          `json:"steps"`
	Schedule    string       `json:"schedule"`
	Trace       []TraceEvent `json:"trace"`
	// Untraced counts the switches the trace does not keep: it keeps the
	// first TraceGap and the last 1,500, and the Untraced between them
	// are left out (a replay with -verbose shows them).
	Untraced   int      `json:"untraced,omitempty"`
	TraceGap   int      `json:"traceGap,omitempty"`
	Goroutines []GInfo  `json:"goroutines"`
	Stack      string   `json:"stack,omitempty"`
	Messages   []string `json:"messages,omitempty"`
	// EarlyTimers counts the times the fake clock was advanced while some
	// goroutine could still run, and Delay the longest delay of a runnable
	// goroutine that such an advance assumed (its wait since it became
	// runnable): the failure assumes a goroutine delayed that long (a
	// timeout path).
	EarlyTimers int           `json:"earlyTimers,omitempty"`
	Delay       time.Duration `json:"delay,omitempty"`
	// Epoch: unix ns at which the execution's clock started (epoch.go); a
	// replay starts there. Not part of the schedule, which is the same
	// whatever the process.
	Epoch int64 `json:"epoch,omitempty"`
	// InitLead: ns from the process's start (its init's clock readings)
	// to Epoch, so that a replay's init reads the recording's times.
	InitLead int64 `json:"initLead,omitempty"`
	// Key, when set, names the bug across executions and workers where
	// the message does not: a race is its pair of sites, whichever
	// goroutines made the accesses and in either order ("race 12 40").
	Key string `json:"key,omitempty"`
}

// GInfo is a goroutine's position when the execution ended. State is
// runnable, blocked (in a channel operation or select), sleeping (in
// time.Sleep), waiting (on a lock, WaitGroup, Once or Cond), exited, timer
// not fired (a time.AfterFunc callback), or returned (the test goroutine
// after its function returned); Waiting says on what, as the failure found
// it.
type GInfo struct {
	ID      string `json:"id"`
	Parent  string `json:"parent,omitempty"`
	Created string `json:"created,omitempty"`
	State   string `json:"state"`
	At      string `json:"at"`
	Waiting string `json:"waiting,omitempty"`
}
