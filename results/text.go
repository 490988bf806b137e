package results

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gopct/gopct/pct"
)

// WriteSummary prints a hunt's outcome for a person: the failure, where it
// happened, the interleaving as a list of context switches, where every
// goroutine was, and the command that replays it.
func WriteSummary(w io.Writer, s *Summary) {
	if s.Inconclusive() {
		fmt.Fprintf(w, "?     %s %s: INCONCLUSIVE: only %d of %d executions ran to their end (%s, seed %d, %.1fs)\n",
			s.Package, s.Test, s.Finished, s.Executions, s.Strategy, s.Seed, s.Seconds)
		if held := writeHeldTimer(w, s); !writeHeldNative(w, s) && !held {
			fmt.Fprintf(w, "      the others were given up as too long: nothing is known about them; raise -max-steps\n"+
				"      or make the test shorter\n")
		}
		return
	}
	if s.NothingRan() {
		fmt.Fprintf(w, "?     %s %s: INCONCLUSIVE: no execution ran to its end within the budget (%s, seed %d, %.1fs)\n"+
			"      nothing was tested: raise -budget (the build counts against it); an execution that\n"+
			"      waits where gopct cannot see (network or file I/O) is named after -stall (20s) of no\n"+
			"      progress, and the budget must leave room for that\n",
			s.Package, s.Test, s.Strategy, s.Seed, s.Seconds)
		return
	}
	if s.Bug == nil {
		fmt.Fprintf(w, "ok    %s %s: no bug in %d executions (%s, seed %d, %.1fs)\n",
			s.Package, s.Test, s.Executions, s.Strategy, s.Seed, s.Seconds)
		if s.Abandoned > 0 {
			fmt.Fprintf(w, "      %d executions were given up as too long (%d finished)\n", s.Abandoned, s.Finished)
			writeHeldTimer(w, s)
			writeHeldNative(w, s)
		}
		writeUnmanaged(w, s)
		return
	}
	b := s.Bug
	fmt.Fprintf(w, "BUG   %s %s: %s found in execution #%d (%d executions run; %s, seed %d, %.1fs)\n",
		s.Package, s.Test, b.Kind, b.Execution, s.Executions, s.Strategy, s.Seed, s.Seconds)
	writeUnmanaged(w, s)
	writeBug(w, b)
	fmt.Fprintf(w, "\nreplay:\n  %s %s\n", ReplayCommand, b.Replay)
	if len(b.Replay) > MaxArgLen {
		fmt.Fprintf(w, "  (the token has %d characters, more than one command-line argument may hold: save it\n"+
			"  to a file, e.g. from -json's bug.replay, and run %s @FILE)\n", len(b.Replay), ReplayCommand)
	}
	writeReplayCheck(w, b.ReplayCheck)
}

// writeReplayCheck warns when the hunt's own replay of the token, in a
// fresh process, did not reproduce the failure: the bug happened, but its
// schedule depends on something gopct does not control in that process.
func writeReplayCheck(w io.Writer, check string) {
	if check == "" || check == ReplayReproduced {
		return
	}
	fmt.Fprintf(w, "  warning: the hunt replayed this token in a fresh process, and it did not reproduce the failure:\n"+
		"    %s\n"+
		"  the failure above did happen, but the execution depends on something gopct does not control\n"+
		"  from one process to the next (per-process hashing such as hash/maphash, the environment, files)\n", check)
}

// writeHeldTimer explains executions given up while a timer waited that
// -max-delay kept from firing as goroutines ran (pct/heldtimer.go): the
// test keeps goroutines busy while it waits for time, and gopct's clock
// runs only when it lets time pass. It reports whether there was one. The
// bound it advises is rounded up to a millisecond: rounded to the nearest,
// a timer 100.0012 ms away read "rerun with -max-delay 100ms", the default
// that had held it (ttlcache's TestCache_SkipTtlExtensionOnHit).
func writeHeldTimer(w io.Writer, s *Summary) bool {
	if s.HeldTimer <= 0 {
		return false
	}
	d := s.HeldTimer.Truncate(time.Millisecond)
	if d < s.HeldTimer {
		d += time.Millisecond
	}
	fmt.Fprintf(w, "      executions were given up while a timer waited and goroutines kept running:\n"+
		"      gopct's clock does not run while code runs, and -max-delay bounds how far it may run\n"+
		"      ahead of running goroutines (a timer that fires while they can run, in all); if the\n"+
		"      test keeps goroutines busy while it waits for time (spins for a duration), rerun with\n"+
		"      -max-delay %v or more (as long as it spins)\n", d)
	return true
}

// writeHeldNative explains executions given up because the token holder
// blocked inside code gopct does not instrument (a poll in another
// module) while goroutines waited for their turn past -max-delay
// (pct/holdtime.go): -max-steps does not help, instrumenting that code
// does. It reports whether there was one.
func writeHeldNative(w io.Writer, s *Summary) bool {
	if s.HeldNative == "" {
		return false
	}
	fmt.Fprintf(w, "      executions were given up while the test waited inside code gopct does not instrument\n"+
		"      (first after %s) and other goroutines waited for their turn longer than -max-delay:\n"+
		"      no real run delays them that long; when that code is another module's (a poll, a mock\n"+
		"      clock), instrument it too: -deps auto,MODULE\n", s.HeldNative)
	return true
}

// MaxArgLen is the longest token a shell passes as one argument: Linux
// refuses an argument over 128 KiB (MAX_ARG_STRLEN) with E2BIG. A schedule
// with thousands of preemptions (GoKer's kernels run with all their 1,000
// copies) has a longer token; gopct replay reads it from @FILE then.
const MaxArgLen = 128*1024 - 1

// writeUnmanaged says that goroutines gopct does not manage ran the test's
// code: a clean result then does not cover their interleavings.
func writeUnmanaged(w io.Writer, s *Summary) {
	if s.Fresh {
		fmt.Fprintf(w, "      note: one process per execution: the test fails after an earlier run in the same process\n"+
			"      (package state it leaves, as under go test -count=2, or a WaitGroup count carried from one\n"+
			"      run to the next, which gopct's models start afresh in each execution) or while another\n"+
			"      worker process runs (a fixed port or file they share)\n")
	}
	if s.Unmanaged == 0 {
		return
	}
	fmt.Fprintf(w, "      note: in %d of %d executions, goroutines gopct does not manage (started by code it does not\n"+
		"      instrument, e.g. net/http's server) ran the test's code, first at %s; their interleavings\n"+
		"      are not explored (-deps instruments a module; docs/DESIGN.md, Limits)\n", s.Unmanaged, s.Executions, s.UnmanagedAt)
}

// ReplayCommand is the command printed before a replay token: how the
// user can run gopct's replay from where they ran the hunt (the command
// sets it; "go run ./cmd/gopct replay" when gopct was started that way).
var ReplayCommand = "gopct replay"

func writeBug(w io.Writer, b *Bug) {
	// testify's messages start with a newline and end with two.
	fmt.Fprintf(w, "\n  %s\n", indent(strings.Trim(b.Message, "\n"), "  "))
	if b.At != "" {
		who := ""
		if b.Goroutine != "" {
			who = " in " + b.Goroutine
		}
		fmt.Fprintf(w, "  at %s%s\n", b.At, who)
	}
	fmt.Fprintf(w, "  preemptions (c): %d   scheduling steps: %d\n", b.Preemptions, b.Steps)
	if b.EarlyTimers > 0 {
		fmt.Fprintf(w, "  timing: timers fired %d time(s) while goroutines could still run:\n"+
			"  the failure needs a runnable goroutine delayed %v; -max-delay bounds the delays hunts assume\n",
			b.EarlyTimers, b.Delay)
	}
	if len(b.Trace) > 0 {
		writeTrace(w, b.Trace, b.Untraced, b.TraceGap)
	}
	if len(b.Goroutines) > 0 {
		writeGoroutines(w, b.Goroutines)
	}
	if b.Stack != "" {
		title := "panic stack"
		if b.Kind == pct.FailRace {
			title = "stack"
		}
		fmt.Fprintf(w, "\n%s:\n  %s\n", title, indent(strings.TrimSpace(b.Stack), "  "))
	}
}

// manyGoroutines is the number of goroutines past which the table of
// goroutines at the end shows at most sameGoroutines of those alike (same
// state, same place, started at the same go statement), unless FullTrace:
// a chain of 1,000 goroutines blocked at one receive is three rows and a
// count.
const (
	manyGoroutines = 50
	sameGoroutines = 3
)

func writeGoroutines(w io.Writer, gs []pct.GInfo) {
	fmt.Fprintf(w, "\ngoroutines at the end:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	alike := map[[3]string]int{}
	hidden := 0
	for _, g := range gs {
		created := ""
		if g.Created != "" {
			created = "created by " + g.Parent + " at " + g.Created
		}
		what := g.Waiting
		if what == "" {
			what = "last at " + g.At
		}
		if !FullTrace && len(gs) > manyGoroutines {
			k := [3]string{g.State, what, g.Created}
			if alike[k]++; alike[k] > sameGoroutines {
				hidden++
				continue
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", g.ID, g.State, what, created)
	}
	tw.Flush()
	if hidden > 0 {
		fmt.Fprintf(w, "  ... and %d more, each like one above (same state and place, started at the same go statement); all with -verbose\n", hidden)
	}
}

// FullTrace prints every context switch of a long trace (-verbose);
// otherwise a trace longer than longTrace is summarised.
var FullTrace bool

// A long trace is summarised by the switches that matter most to a reader:
// the last lastSwitches (how the failure came about) and the preemptions
// before them (the choices the bug needs), at most lastPreemptions of them.
const (
	longTrace       = 200
	lastSwitches    = 20
	lastPreemptions = 30
)

func writeTrace(w io.Writer, trace []pct.TraceEvent, untraced, gap int) {
	keep := summaryOf(trace)
	switch {
	case untraced > 0 && keep == nil:
		fmt.Fprintf(w, "\ninterleaving (the first %d and the last %d of %d context switches):\n",
			gap, len(trace)-gap, len(trace)+untraced)
	case untraced > 0:
		fmt.Fprintf(w, "\ninterleaving (%d context switches, of which the trace keeps the first %d and the last %d; shown: the last %d and the %d preemptions kept before them, all kept with -verbose):\n",
			len(trace)+untraced, gap, len(trace)-gap, lastSwitches, countTrue(keep[:len(trace)-lastSwitches]))
	case keep == nil:
		fmt.Fprintf(w, "\ninterleaving (context switches):\n")
	default:
		fmt.Fprintf(w, "\ninterleaving (%d context switches; shown: the last %d and the %d preemptions before them, all with -verbose):\n",
			len(trace), lastSwitches, countTrue(keep[:len(trace)-lastSwitches]))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	skipped, prevStep := 0, -1
	flushSkipped := func() {
		if skipped > 0 {
			fmt.Fprintf(tw, "  ...\t%s\n", plural(skipped, "switch", "switches"))
			skipped = 0
		}
	}
	for i, ev := range trace {
		if untraced > 0 && i == gap {
			flushSkipped()
			fmt.Fprintf(tw, "  ...\t%s not kept\n", plural(untraced, "switch", "switches"))
		}
		if keep != nil && !keep[i] {
			skipped++
			continue
		}
		flushSkipped()
		writeSwitch(tw, ev, ev.Step == prevStep)
		prevStep = ev.Step
	}
	tw.Flush()
}

// summaryOf returns which switches of a long trace are shown (nil: all).
func summaryOf(trace []pct.TraceEvent) []bool {
	if FullTrace || len(trace) <= longTrace {
		return nil
	}
	keep := make([]bool, len(trace))
	tail := len(trace) - lastSwitches
	for i := tail; i < len(trace); i++ {
		keep[i] = true
	}
	for i, n := tail-1, 0; i >= 0 && n < lastPreemptions; i-- {
		if trace[i].Preemptive {
			keep[i] = true
			n++
		}
	}
	return keep
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// writeSwitch prints one switch; sameStep says that the previous switch
// happened at the same scheduling step (a goroutine blocked and the token
// moved on without a new point), whose number is not printed again.
func writeSwitch(w io.Writer, ev pct.TraceEvent, sameStep bool) {
	mark := ""
	if ev.Preemptive {
		mark = "preempted"
	} else if ev.Reason != "" {
		mark = ev.Reason
	}
	from := ev.From
	if from == "" {
		from = "(time passed)"
	}
	to := ev.To
	if to == "time" {
		to = "time passes"
	}
	at := ""
	if ev.At != "" {
		at = ev.From + " at " + ev.At
		if ev.Op != "" {
			at += " (" + ev.Op + ")"
		}
	}
	step := fmt.Sprintf("step %d", ev.Step)
	if sameStep {
		step = ""
	}
	fmt.Fprintf(w, "  %s\t%s -> %s\t%s\t%s\n", step, from, to, at, mark)
}

// WriteReplay prints the outcome of a replay.
func WriteReplay(w io.Writer, r *ReplayResult) {
	switch {
	case r.Diverged != "":
		fmt.Fprintf(w, "DIVERGED %s %s: the program did not follow the recorded schedule:\n  %s\n", r.Package, r.Test, r.Diverged)
		fmt.Fprintf(w, "  (the code changed, or uncontrolled nondeterminism: real time read outside the test, goroutines gopct does not manage, state from outside the process)\n")
	case r.Bug != nil:
		fmt.Fprintf(w, "REPRODUCED %s %s: %s\n", r.Package, r.Test, r.Bug.Kind)
		if r.Drift != "" {
			fmt.Fprintf(w, "  the same failure, by another path than the trace below: the run left the recorded schedule:\n  %s\n"+
				"  (uncontrolled nondeterminism on the way: a select or timer in code gopct does not instrument, real time, state from outside the process)\n", r.Drift)
		}
		writeBug(w, r.Bug)
	default:
		fmt.Fprintf(w, "PASS  %s %s: the recorded schedule ran to the end and the test passed\n", r.Package, r.Test)
	}
}

func indent(s, pre string) string { return strings.ReplaceAll(s, "\n", "\n"+pre) }
