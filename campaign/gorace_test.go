package campaign

import (
	"strings"
	"testing"
)

// A report of Go's race detector as a -race worker prints it (addresses and
// goroutine numbers vary from run to run; the message must not).
const goRaceOutput = `=== RUN   TestLost
==================
WARNING: DATA RACE
Read at 0x00c000018128 by goroutine 14:
  gopct.invalid/rt.Load[go.shape.int]()
      /tmp/gopct-instr-1/rt/api.go:78 +0x94
  example.com/x.TestLost.func1.1()
      /home/u/x/x_test.go:13 +0x12
  golang.org/x/sync/errgroup.(*Group).Go.func1()
      /root/go/pkg/mod/golang.org/x/sync@v0.24.0/errgroup/errgroup.go:93 +0x86

Previous write at 0x00c000018128 by goroutine 13:
  gopct.invalid/rt.Store[go.shape.int]()
      /tmp/gopct-instr-1/rt/api.go:89 +0x124
  example.com/x.TestLost.func1.1()
      /home/u/x/x_test.go:14 +0x12

Goroutine 14 (running) created at:
  golang.org/x/sync/errgroup.(*Group).Go()
      /root/go/pkg/mod/golang.org/x/sync@v0.24.0/errgroup/errgroup.go:78 +0x11c
==================
`

func TestGoRaceReport(t *testing.T) {
	msg, report, ok := goRaceReport(goRaceOutput, "/home/u/x")
	if !ok {
		t.Fatal("no report found")
	}
	if want := "data race (Go's race detector, -gorace): read at x_test.go:13, previous write at x_test.go:14"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	if !strings.HasPrefix(report, "WARNING: DATA RACE") || !strings.Contains(report, "Goroutine 14 (running) created at") ||
		strings.Contains(report, "=====") {
		t.Errorf("report:\n%s", report)
	}
	if _, _, ok := goRaceReport("fatal error: concurrent map writes", "/"); ok {
		t.Error("a fatal error read as a race report")
	}
}

func TestGoRaceEnvStopsAtTheFirstReport(t *testing.T) {
	t.Setenv("GORACE", "history_size=3")
	if got, want := goRaceEnv(), "GORACE=history_size=3 log_path=stderr halt_on_error=1 exitcode=66"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// A user's log_path would send the report to a file gopct does not read:
// it is dropped, the other options are kept.
func TestGoRaceEnvReportsToTheOutput(t *testing.T) {
	t.Setenv("GORACE", " log_path=/tmp/r  strip_path_prefix=/home/u log_path=x ")
	want := "GORACE=strip_path_prefix=/home/u log_path=stderr halt_on_error=1 exitcode=66"
	if got := goRaceEnv(); got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
