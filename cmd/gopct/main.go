// Command gopct finds concurrency bugs in Go tests by running them under a
// controlled goroutine scheduler. See the README for the commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/gopct/gopct/internal/usererr"
	"github.com/gopct/gopct/results"
)

const usage = `gopct finds concurrency bugs in ordinary Go tests.

Usage:
  gopct hunt [flags] [package]     run a test many times under controlled schedules
  gopct replay [-json] [-count N] TOKEN|@FILE|-  rerun one recorded interleaving (N times)
  gopct explore [-c C] [package]   every schedule with at most C preemptions, fewest first
  gopct classify [-c MAX] [package]
                                   the smallest (c, v, t) at which each test fails
  gopct vars [-json] [-run RE] [-profile N] [packages]
                                   list the variables and their access sites (alias analysis)
  gopct tbound [-json] -n N -t T [-c C]
                                   executions that cover every order of t threads (Lemma 4.1)
  gopct ci [-budget 2m] [-shard i/N] [-junit F] [packages]
                                   time-budgeted smoke run over every test; exit 1 on any bug
  gopct report [-html F] results...
                                   tables and an HTML page with plots of -results files
  gopct merge [-o F] results...    combine the results of shards into one
  gopct bench [flags] DIR          measure bug finding on a module of bug programs
  gopct help                       this text

Run "gopct hunt -h" for the flags of hunt.

Exit codes: 0 no bug, 1 bug found (replay: reproduced), 2 usage, build or
environment error, 3 replay diverged from the recorded schedule.
`

func main() {
	lessGCByDefault()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// lessGCByDefault lets gopct's own heap grow to 4x its live heap between
// collections (GOGC=400), up to a soft limit of 4 GB, unless the user set
// GOGC or GOMEMLIMIT. Instrumenting loads and type-checks every package
// the tests import from source and builds their SSA: a small module's
// analysis allocates ~600 MB, and at Go's default GOGC=100 about 45% of
// its CPU time is garbage collection. A cold hunt of testscript
// hunt_lostupdate's module: 6.6 -> 4.8 s CPU with GOGC=1000. The test
// binaries gopct runs keep the user's settings.
func lessGCByDefault() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(4 << 30)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	results.ReplayCommand = replayCommand()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "hunt":
		return hunt(args[1:], stdout, stderr)
	case "replay":
		return replay(args[1:], stdout, stderr)
	case "explore":
		return explore(args[1:], stdout, stderr)
	case "classify":
		return classify(args[1:], stdout, stderr)
	case "ci":
		return ci(args[1:], stdout, stderr)
	case "bench":
		return benchCmd(args[1:], stdout, stderr)
	case "vars":
		return vars(args[1:], stdout, stderr)
	case "tbound":
		return tboundCmd(args[1:], stdout, stderr)
	case "report":
		return report(args[1:], stdout, stderr)
	case "merge":
		return merge(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "gopct: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// fail prints an error the way every command does: one paragraph, no
// stack trace; user errors exit 2, internal ones too (but say so).
func fail(stderr io.Writer, err error) int {
	if errors.Is(err, usererr.ErrUser) {
		fmt.Fprintf(stderr, "gopct: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "gopct: internal error (please report it): %v\n", err)
	return 2
}

// parseStatus is the exit status of a command whose flags did not parse:
// 0 when the user asked for help (-h, -help; the usage is already printed,
// as with Go's own commands), 2 otherwise (the error and the usage are
// already printed).
func parseStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
