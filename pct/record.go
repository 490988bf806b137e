package pct

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
)

// Schedule is what replay needs: every decision that did not simply let the
// current goroutine continue, and every select-order choice that was not 0;
// for a random walk, its seed and number of draws instead (Walk).
//
// FP is the fingerprint of the whole path (0: not recorded): a run that
// agrees at every switch but differs after the last one (a branch taken on
// another random draw) is noticed at its end.
//
// Trail is every step's goroutine and site (the first ones: see trail.go)
// and Sites the position and operation of each site it names, as the
// recording's binary printed them (nil: not recorded).
type Schedule struct {
	Steps    int
	FP       uint32
	Switches []SwitchEvent
	Picks    []PickEvent
	Trail    []trailStep
	Sites    map[int]string
	Draws    uint32 // fingerprint of the random draws alone (0: not recorded)
	// Walk: the execution was a random walk, whose choices follow from
	// its seed; Switches and Picks are not recorded (a multi-million-step
	// walk switched at every other step: a 12 MB schedule), and a replay
	// walks again from WalkSeed. WalkDraws is the number of numbers the
	// walk drew: a replay that draws another number of them diverged.
	Walk      bool
	WalkSeed  uint64
	WalkDraws int
	Epoch     int64 // from a crash log: the execution's epoch (not encoded: BugReport.Epoch carries it)
}

// walker is a strategy whose choices are a function of its seed and of
// what the program does (the random walk): its schedule is the seed and
// the number of draws (Schedule.Walk).
type walker interface {
	walked() (seed uint64, draws int)
}

// walkerOf is s as a walker: the random walk, or a replay of a walk's
// schedule; nil otherwise.
func walkerOf(s Strategy) walker {
	switch x := s.(type) {
	case *randomWalk:
		return x
	case *replayStrategy:
		if x.walk != nil {
			return x
		}
	}
	return nil
}

// SwitchEvent says that at decision number Step goroutine To was chosen
// (-1: time passed). FP is the fingerprint of the path up to that decision
// (every step's goroutine, site and kind; 0: not recorded, as in a crash
// log) and Site where the goroutine at the decision was: a replay compares
// them to notice a different path even where the switches agree.
type SwitchEvent struct {
	Step, To int
	FP       uint32
	Site     int
}

// PickEvent says that at decision number Step the value Value was picked.
type PickEvent struct{ Step, Value int }

// TraceEvent is one context switch of a reported execution.
type TraceEvent struct {
	Step       int    `json:"step"`
	From       string `json:"from"`
	To         string `json:"to"`
	At         string `json:"at,omitempty"` // where From was
	Op         string `json:"op,omitempty"` // what From was about to do
	Preemptive bool   `json:"preemptive"`   // From could have continued
	// Var is, at a preemption, the variable it is counted against: the
	// one From was about to access, or accessed last (source text).
	Var    string `json:"var,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// preemptionCounter is a strategy that counts preemptions otherwise than
// CHESS (a switch away from a goroutine that could continue): Preempted
// says whether its answer to the last decision was one.
type preemptionCounter interface{ Preempted() bool }

// recorder keeps the schedule and the readable trace of an execution.
type recorder struct {
	sched       Schedule
	trace       []switchRec
	preemptions int
	crash       *crashLog
	trail       []trailStep     // the buffer of the steps (trail.go)
	steps       int             // steps in trail
	follow      *replayStrategy // the replay that checks each step, or nil
	walk        walker          // the strategy, when it is a walk: no switches recorded
	// windowEnd is the step at which the last livelock window closed
	// (0: none). The decision there hands the token back by the
	// strategy's order: no preemption, whoever the window's last turn ran.
	windowEnd int
	// untraced counts the switches the trace dropped: it keeps the first
	// headTrace and, in a ring from trace[headTrace] on (next: tailNext),
	// the last maxTrace-headTrace.
	untraced int
	tailNext int
}

func newRecorder() *recorder {
	if trailBuf == nil {
		trailBuf = make([]trailStep, maxTrailSteps)
	}
	return &recorder{trail: trailBuf}
}

// switchTo records a decision that did not let from continue; to is nil
// when time passed. A default decision (where the current goroutine cannot
// continue, the first option: the runnable goroutine of lowest id, or time
// when nobody can run) goes into the trace but not into the schedule: a
// replay takes the default wherever nothing is recorded, and the path
// fingerprint, checked at the next recorded switch and at the end, still
// covers it. A poller whose clock runs for ten minutes of 1 ms ticks would
// otherwise record 1,200,000 switches, a token of megabytes.
//
// A switch of a livelock window (e.live) is the engine's round robin, not
// the strategy's choice: a replay reaches the window at the same step and
// makes the same turns (fairNext), so the schedule leaves them out (65,536
// switches per window made tokens of half a megabyte, longer than a
// command line takes, and a replay waited at the first of them for a
// decision the window never asks the strategy: it diverged). They are no
// preemption of the schedule either (c, v and t of reports), and the trace
// keeps the first windowTrace of each window, enough to show the turns.
func (r *recorder) switchTo(e *execution, from, to *G, canContinue, byDefault bool) {
	id := timeID
	if to != nil {
		id = to.id
	}
	if e.live != nil {
		r.windowSwitch(e, from, id)
		return
	}
	site := -1
	if from != nil {
		site = from.site
	}
	if !byDefault {
		if r.walk == nil {
			r.sched.Switches = append(r.sched.Switches, SwitchEvent{Step: e.seq, To: id, FP: e.fingerprint(), Site: site})
		}
		r.crash.add(tagSwitch, e.seq, id) // a crash's schedule is its switches
	}
	// A switch at runtime.Gosched is the goroutine's own request, as the
	// exhaustive search counts it (exhaustive.branch): counted, the yields
	// of a spin loop made a report's c 131,074 (GoKer's cockroach1462).
	preemptive := canContinue && from != nil && !e.yielding
	if c, ok := e.strategy.(preemptionCounter); ok && from != nil {
		preemptive = c.Preempted() // the strategy counts preemptions its own way
	} else if e.step == r.windowEnd {
		preemptive = false
	}
	if preemptive {
		r.preemptions++
	}
	sw := switchRec{step: e.step, from: noG, to: id, site: -1, preemptive: preemptive}
	if preemptive && from.lastMem >= 0 {
		sw.varExpr = siteTable[from.lastMem].Expr
	}
	if from != nil {
		sw.from, sw.site = from.id, from.site
		switch {
		case from.state == gDone:
			sw.reason = "exited"
		case from.state != gEnabled:
			sw.reason = from.waitFor
		}
	} else if h := e.handedOff; h != nil {
		// The guard's decision (native.go): from the goroutine that
		// blocked inside code gopct does not instrument.
		sw.from, sw.site, sw.reason, sw.noOp = h.id, h.site, "blocked inside code gopct does not instrument", true
	}
	r.keep(sw)
}

// switchRec is a switch as the trace keeps it during the execution: no
// strings are built until a report asks (kept), as a switch costs a few
// hundred nanoseconds and an execution may switch millions of times.
type switchRec struct {
	step, from, to, site int
	preemptive, noOp     bool
	reason, varExpr      string
}

// noG: a switch not from a goroutine (from idle).
const noG = -2

// event is the switch as reports show it.
func (sw *switchRec) event() TraceEvent {
	ev := TraceEvent{Step: sw.step, To: gname(sw.to), Preemptive: sw.preemptive, Var: sw.varExpr, Reason: sw.reason}
	if sw.from != noG {
		ev.From, ev.At = gname(sw.from), sitePos(sw.site)
		if !sw.noOp {
			ev.Op = siteOp(sw.site)
		}
	}
	return ev
}

// keep adds sw to the trace: its first headTrace switches and its last
// maxTrace-headTrace, which show how the failure came about (a trace that
// kept its first 2,000 only ended long before the failure of go-yamux's
// TestSendData_Small, 142,000 switches).
func (r *recorder) keep(sw switchRec) {
	if len(r.trace) < maxTrace {
		r.trace = append(r.trace, sw)
		return
	}
	r.trace[headTrace+r.tailNext] = sw
	r.tailNext = (r.tailNext + 1) % (maxTrace - headTrace)
	r.untraced++
}

// kept returns the trace in order: the first switches, then the last.
func (r *recorder) kept() []TraceEvent {
	evs := make([]TraceEvent, 0, len(r.trace))
	for i := range r.trace {
		k := i
		if i >= headTrace && r.untraced > 0 {
			k = headTrace + (i-headTrace+r.tailNext)%(maxTrace-headTrace)
		}
		evs = append(evs, r.trace[k].event())
	}
	return evs
}

// traceGap is where in the kept trace the untraced switches belong (0:
// none left out).
func (r *recorder) traceGap() int {
	if r.untraced == 0 {
		return 0
	}
	return headTrace
}

// windowTrace is how many switches of each livelock window the trace
// keeps.
const windowTrace = 32

// windowSwitch puts a switch of a livelock window into the trace only.
func (r *recorder) windowSwitch(e *execution, from *G, to int) {
	if e.live.traced >= windowTrace {
		return
	}
	e.live.traced++
	sw := switchRec{step: e.step, from: noG, to: to, site: -1, reason: "livelock check: round robin"}
	if from != nil {
		sw.from, sw.site = from.id, from.site
	}
	r.keep(sw)
}

func (r *recorder) pick(step, v int) {
	if v != 0 {
		if r.walk == nil {
			r.sched.Picks = append(r.sched.Picks, PickEvent{step, v})
		}
		r.crash.add(tagPick, step, v)
	}
}

// maxTrace is how many switches the trace keeps, the first headTrace of
// them and the last maxTrace-headTrace.
const (
	maxTrace  = 2000
	headTrace = 500
)

// timeID stands for "time passed" where a goroutine id is expected.
const timeID = -1

func gname(id int) string {
	if id == timeID {
		return "time"
	}
	if id < 0 {
		return "-"
	}
	return "g" + strconv.Itoa(id) // not Sprintf: called at every switch
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// Encode packs a schedule as base64url varints (steps delta-coded).
func (s Schedule) Encode() string {
	var b []byte
	b = binary.AppendUvarint(b, scheduleFormat)
	b = binary.AppendUvarint(b, uint64(s.Steps))
	b = binary.AppendUvarint(b, uint64(s.FP))
	b = binary.AppendUvarint(b, uint64(len(s.Switches)))
	last := 0
	for _, w := range s.Switches {
		b = binary.AppendUvarint(b, uint64(w.Step-last))
		b = binary.AppendUvarint(b, uint64(w.To+1))
		b = binary.AppendUvarint(b, uint64(w.FP))
		b = binary.AppendUvarint(b, uint64(w.Site+1))
		last = w.Step
	}
	b = binary.AppendUvarint(b, uint64(len(s.Picks)))
	last = 0
	for _, p := range s.Picks {
		b = binary.AppendUvarint(b, uint64(p.Step-last))
		b = binary.AppendUvarint(b, uint64(p.Value))
		last = p.Step
	}
	limit := maxTrailBytes
	if s.Walk {
		limit = maxWalkTrailBytes
	}
	trail := encodeTrail(s.Trail, limit)
	b = binary.AppendUvarint(b, uint64(len(trail)))
	b = append(b, trail...)
	b = binary.AppendUvarint(b, uint64(s.Draws))
	if s.Walk {
		b = binary.AppendUvarint(b, 1)
		b = binary.AppendUvarint(b, s.WalkSeed)
		b = binary.AppendUvarint(b, uint64(s.WalkDraws))
	} else {
		b = binary.AppendUvarint(b, 0)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeSchedule reverses Encode.
func DecodeSchedule(s string) (Schedule, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Schedule{}, err
	}
	d := &uvarints{b: b}
	var out Schedule
	format := d.next()
	if format < 3 || format > scheduleFormat {
		return out, errors.New("unknown schedule format (made by another version of gopct)")
	}
	out.Steps = int(d.next())
	out.FP = uint32(d.next())
	n := int(d.next())
	last := 0
	for i := 0; i < n && d.err == nil; i++ {
		last += int(d.next())
		to := int(d.next()) - 1
		fp := uint32(d.next())
		out.Switches = append(out.Switches, SwitchEvent{Step: last, To: to, FP: fp, Site: int(d.next()) - 1})
	}
	n = int(d.next())
	last = 0
	for i := 0; i < n && d.err == nil; i++ {
		last += int(d.next())
		out.Picks = append(out.Picks, PickEvent{Step: last, Value: int(d.next())})
	}
	if format < 7 && out.Steps > maxTrailSteps {
		out.forgetFingerprints() // hashed past the trail the way gopct no longer does
	}
	if format < 4 || d.err != nil {
		return out, d.err
	}
	n = int(d.next())
	if d.err != nil || n > len(d.b) {
		return out, errors.New("truncated schedule")
	}
	if n > 0 {
		if err := out.decodeTrail(d.b[:n]); err != nil {
			return out, err
		}
	}
	d.b = d.b[n:]
	out.Draws = uint32(d.next())
	if format < 5 || d.err != nil {
		return out, d.err
	}
	if d.next() == 1 {
		out.Walk = true
		out.WalkSeed = d.next()
		out.WalkDraws = int(d.next())
	}
	return out, d.err
}

// scheduleFormat is the version of Encode's format (3: the path's final
// fingerprint; 4: the trail; 5: a random walk's seed and draws; 6: memory
// steps past the trail are not hashed, tally.go; 7: nor the steps of
// mutexes and atomics, tally_sync.go). DecodeSchedule reads 3 to 6 as well.
const scheduleFormat = 7

// forgetFingerprints drops the path fingerprints of a schedule recorded
// before format 7, whose memory or synchronisation steps past the trail
// were hashed: a replay still follows its switches and checks its steps,
// trail and draws.
func (s *Schedule) forgetFingerprints() {
	s.FP = 0
	for i := range s.Switches {
		s.Switches[i].FP = 0
	}
}

type uvarints struct {
	b   []byte
	err error
}

func (d *uvarints) next() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errors.New("truncated schedule")
		return 0
	}
	d.b = d.b[n:]
	return v
}
