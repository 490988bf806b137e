package results

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gopct/gopct/pct"
)

// WriteSummary prints a hunt's outcome for a person: the failure, where it
// happened, the interleaving as a list of context switches, where every
// goroutine was, and the command that replays it.
func WriteSummary(w io.Writer, s *Summary) {
	if s.Inconclusive() {
		fmt.Fprintf(w, "?     %s %s: INCONCLUSIVE: only %d of %d executions ran to their end (%s, seed %d, %.1fs)\n"+
			"      the others were given up as too long: nothing is known about them; raise -max-steps\n"+
			"      or make the test shorter\n",
			s.Package, s.Test, s.Finished, s.Executions, s.Strategy, s.Seed, s.Seconds)
		return
	}
	if s.Bug == nil {
		fmt.Fprintf(w, "ok    %s %s: no bug in %d executions (%s, seed %d, %.1fs)\n",
			s.Package, s.Test, s.Executions, s.Strategy, s.Seed, s.Seconds)
		if s.Abandoned > 0 {
			fmt.Fprintf(w, "      %d executions were given up as too long (%d finished)\n", s.Abandoned, s.Finished)
		}
		return
	}
	b := s.Bug
	fmt.Fprintf(w, "BUG   %s %s: %s found in execution #%d (%d executions run; %s, seed %d, %.1fs)\n",
		s.Package, s.Test, b.Kind, b.Execution, s.Executions, s.Strategy, s.Seed, s.Seconds)
	writeBug(w, b)
	fmt.Fprintf(w, "\nreplay:\n  %s %s\n", ReplayCommand, b.Replay)
}

// ReplayCommand is the command printed before a replay token: how the
// user can run gopct's replay from where they ran the hunt (the command
// sets it; "go run ./cmd/gopct replay" when gopct was started that way).
var ReplayCommand = "gopct replay"

func writeBug(w io.Writer, b *Bug) {
	fmt.Fprintf(w, "\n  %s\n", indent(b.Message, "  "))
	if b.At != "" {
		who := ""
		if b.Goroutine != "" {
			who = " in " + b.Goroutine
		}
		fmt.Fprintf(w, "  at %s%s\n", b.At, who)
	}
	fmt.Fprintf(w, "  preemptions (c): %d   scheduling steps: %d\n", b.Preemptions, b.Steps)
	if b.EarlyTimers > 0 {
		fmt.Fprintf(w, "  timing: timers fired %d time(s) while goroutines could still run (the longest jump %v):\n"+
			"  the failure needs a runnable goroutine delayed %v; -max-delay bounds the delays hunts assume\n",
			b.EarlyTimers, b.Delay, b.Delay)
	}
	if len(b.Trace) > 0 {
		fmt.Fprintf(w, "\ninterleaving (context switches):\n")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, ev := range b.Trace {
			writeSwitch(tw, ev)
		}
		tw.Flush()
	}
	if len(b.Goroutines) > 0 {
		fmt.Fprintf(w, "\ngoroutines at the end:\n")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, g := range b.Goroutines {
			created := ""
			if g.Created != "" {
				created = "created by " + g.Parent + " at " + g.Created
			}
			what := g.Waiting
			if what == "" {
				what = "last at " + g.At
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", g.ID, g.State, what, created)
		}
		tw.Flush()
	}
	if b.Stack != "" {
		fmt.Fprintf(w, "\npanic stack:\n  %s\n", indent(strings.TrimSpace(b.Stack), "  "))
	}
}

func writeSwitch(w io.Writer, ev pct.TraceEvent) {
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
	fmt.Fprintf(w, "  step %d\t%s -> %s\t%s\t%s\n", ev.Step, from, to, at, mark)
}

// WriteReplay prints the outcome of a replay.
func WriteReplay(w io.Writer, r *ReplayResult) {
	switch {
	case r.Diverged != "":
		fmt.Fprintf(w, "DIVERGED %s %s: the program did not follow the recorded schedule:\n  %s\n", r.Package, r.Test, r.Diverged)
		fmt.Fprintf(w, "  (uncontrolled nondeterminism: map iteration order, math/rand, real time, goroutines gopct does not manage, or the code changed)\n")
	case r.Bug != nil:
		fmt.Fprintf(w, "REPRODUCED %s %s: %s\n", r.Package, r.Test, r.Bug.Kind)
		writeBug(w, r.Bug)
	default:
		fmt.Fprintf(w, "PASS  %s %s: the recorded schedule ran to the end and the test passed\n", r.Package, r.Test)
	}
}

func indent(s, pre string) string { return strings.ReplaceAll(s, "\n", "\n"+pre) }
