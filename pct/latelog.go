package pct

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// lateWindow is how long (fake time) after its test completed a goroutine's
// use of the test's t counts as a late report. go test marks a test done
// once its function and cleanups have returned; a Log or Error on its t
// after that panics "Log in goroutine after TestX has completed" when the
// whole run has ended by then (a single test run with -run), and under
// -race it is a data race on the test's state whenever no later test keeps
// the binary busy. Goroutines that sleep for long after their test ended
// are, natively, most likely stopped by the binary's exit first: gopct
// lets them run on (to see whether they leak) without blaming their late
// reports on the test.
const lateWindow = time.Second

// TLog is t.Log(args...) or t.Logf(format, args...) (method) on testing's
// types: a late one fails the execution as go test's panic (lateReport);
// any other is logged as written.
func TLog(site int, tb testing.TB, method string, args ...any) {
	tb.Helper()
	lateReport(site, tb, method, args)
	if method == "Logf" {
		tb.Logf(args[0].(string), args[1:]...)
		return
	}
	tb.Log(args...)
}

// Logfer is the part of a test library's TestingT interface through which
// it logs a formatted line (zap's zaptest, knative's logging kernels).
type Logfer interface {
	Logf(format string, args ...any)
}

// TLogf is t.Logf(format, args...) on a test library's TestingT
// interface: TLog's check when the value is the test's *testing.T.
func TLogf(site int, t Logfer, format string, args ...any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	lateReport(site, t, "Logf", append([]any{format}, args...))
	t.Logf(format, args...)
}

// LoggerArgs is the part of a test library's TestingT interface through
// which it logs its operands.
type LoggerArgs interface {
	Log(args ...any)
}

// TLogArgs is t.Log(args...) on a test library's TestingT interface.
func TLogArgs(site int, t LoggerArgs, args ...any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	lateReport(site, t, "Log", args)
	t.Log(args...)
}

// lateReport fails the execution, as go test's panic, when a goroutine of
// the test calls method of the test's t (or a subtest's: under gopct they
// share the test's) after the test completed: its function, its subtests
// and its cleanups have returned (finishBody), less than lateWindow ago.
// Subtests complete earlier, but a late call through a subtest's t is not
// told apart from one through its parent's, which go test accepts while
// the parent runs: only the test's own completion is checked. After a
// failure of the test itself, its message stays the report.
func lateReport(site int, t any, method string, args []any) {
	e, g := self()
	if e == nil || g == nil || g == e.g0 || !e.bodyDone || e.bodyFailed || e.aborted.Load() {
		return
	}
	d := now().Sub(e.bodyDoneAt)
	if tt, ok := t.(*testing.T); !ok || tt != e.bodyT || d >= lateWindow {
		return
	}
	name := TName(site, e.bodyT)
	msg := "Fail in goroutine after " + name + " has completed"
	if method != "Fail" && method != "FailNow" {
		msg = "Log in goroutine after " + name + " has completed: " + messageText(method, args)
	}
	after := "after"
	if d > 0 {
		after = d.String() + " after"
	}
	e.fail(&Failure{Kind: FailPanic, Site: site, Goroutine: g.id, Message: msg + fmt.Sprintf(
		" (%s used the test's t %s the test and its cleanups had returned: go test panics so "+
			"when its run has ended, and -race reports a data race on the test's state)", gname(g.id), after)})
	<-e.abortCh
}

// messageText is the line t.method(args...) logs, without its newline.
func messageText(method string, args []any) string {
	switch method {
	case "Errorf", "Fatalf", "Logf", "Skipf":
		return fmt.Sprintf(args[0].(string), args[1:]...)
	case "Fail", "FailNow":
		return "t." + method + "()"
	}
	// t.Error, t.Fatal, t.Log and t.Skip format as fmt.Sprintln does (a
	// space between every two operands), not as fmt.Sprint.
	return strings.TrimSuffix(fmt.Sprintln(args...), "\n")
}
