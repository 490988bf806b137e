package pct

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// FailureKind names how an execution went wrong. Bugs of the program are
// reported with a replay; environment kinds are limits of gopct's setting,
// reported as errors (exit 2); the others end an execution without a
// verdict.
type FailureKind string

// Bugs of the program.
const (
	FailTest     FailureKind = "fail"     // t.Error, t.Fatal (also from a spawned goroutine)
	FailPanic    FailureKind = "panic"    // a panic in any goroutine
	FailDeadlock FailureKind = "deadlock" // every goroutine blocked
	FailLeak     FailureKind = "leak"     // goroutines blocked for ever after the test returned
	FailFatal    FailureKind = "fatal"    // a Go runtime fatal error (concurrent map writes, ...)
	FailHang     FailureKind = "hang"     // the fake clock passed the test's timeout
	FailLivelock FailureKind = "livelock" // no progress under a fair schedule
	FailRace     FailureKind = "race"     // two unordered accesses to the same memory, one a write
)

// Executions ended without a verdict: counted, never reported as bugs.
const (
	FailStepLimit FailureKind = "steplimit" // ran past -max-steps
	FailAbandoned FailureKind = "abandoned" // the strategy pruned it
	// FailFinalizable: the test returned and left goroutines running that a
	// finalizer gopct did not register may stop (go-cache's janitor is
	// stopped by a finalizer on its cache): the runner turns it into a
	// finished run without a failure (runner.execute).
	FailFinalizable FailureKind = "finalizable"
	// FailDaemons: the test returned, and the only goroutines left were
	// started inside a package-level sync.Once: they serve the process
	// (daemons.go), and the run is finished as FailFinalizable's is.
	FailDaemons FailureKind = "daemons"
)

// Limits of the environment: errors (exit 2), never bugs.
const (
	FailStuck       FailureKind = "stuck"       // blocked where gopct cannot schedule
	FailUnsupported FailureKind = "unsupported" // a construct gopct cannot run in a bubble
	FailSkip        FailureKind = "skip"        // the test skips itself
)

// IsBug says whether the kind is a bug of the program under test.
func (k FailureKind) IsBug() bool {
	switch k {
	case FailTest, FailPanic, FailDeadlock, FailLeak, FailFatal, FailHang, FailLivelock, FailRace:
		return true
	}
	return false
}

// IsEnvironment says whether the kind is a limit of the environment.
func (k FailureKind) IsEnvironment() bool {
	return k == FailStuck || k == FailUnsupported || k == FailSkip
}

// Failure is what went wrong in an execution.
type Failure struct {
	Kind      FailureKind
	Message   string
	Site      int
	Step      int
	Goroutine int
	Stack     string
	Where     string // file:line where it happened, when the site does not say
	// Key names the bug across executions where the message does not (a
	// race: its pair of sites, in either order and by any goroutines).
	Key string
	// HeldTimer (FailStepLimit): how far the next timer was when the
	// execution was given up, if -max-delay kept it from firing while
	// goroutines ran (heldtimer.go).
	HeldTimer time.Duration
	// HeldNative (FailStepLimit): where the token holder blocked inside
	// code gopct does not instrument while the clock ran past -max-delay
	// and goroutines waited for their turn (holdtime.go).
	HeldNative string
}

// unsupportedPanic recognises the testing package's refusals inside a
// synctest bubble.
func unsupportedPanic(msg string) bool {
	return strings.HasPrefix(msg, "testing: t.") && strings.HasSuffix(msg, "inside synctest bubble")
}

// bubbleRefusal finds such a refusal quoted in a test's message, "" if
// there is none.
func bubbleRefusal(text string) string {
	for _, method := range []string{"Run", "Parallel", "Deadline"} {
		refusal := "testing: t." + method + " called inside synctest bubble"
		if strings.Contains(text, refusal) {
			return refusal
		}
	}
	return ""
}

// unsupportedHint says what to do about a refusal of the bubble. A t.Run
// in a module gopct instruments is supported (subtests.go); one in a module
// it does not is refused (pion/transport's dpipe TestNetTest, through
// nettest.TestConn: sweep fresh32), hence -deps.
const unsupportedHint = "gopct runs every execution in a testing/synctest bubble, where t.Run, t.Parallel and t.Deadline " +
	"are not allowed; hunt a test without subtests (move the subtest's body into its own TestXxx), or, when " +
	"another module's code calls t.Run (golang.org/x/net/nettest.TestConn), instrument it: -deps auto,MODULE " +
	"makes its subtests the test's own"

// fatal reports a Go runtime fatal error (the real program would die) and
// stops the calling goroutine for good.
func (e *execution) fatal(site int, msg string) {
	g := e.holder
	id := -2
	if g != nil {
		id = g.id
	}
	e.fail(&Failure{Kind: FailFatal, Message: msg, Site: site, Goroutine: id})
	<-e.abortCh
}

// testFailure records a t.Error/t.Fatal message before calling the real
// method, so the report can quote it.
func testFailure(site int, t testing.TB, method string, args []any) {
	t.Helper()
	lateReport(site, t, method, args)
	if e, g := self(); e != nil {
		e.noteMessage(g, site, t, method, args)
		if tt, ok := t.(*testing.T); ok && tt == e.bodyT && strings.HasPrefix(method, "F") && method != "Fail" {
			e.fatalExit = true // Fatal, Fatalf, FailNow of the test function's T
		}
	}
	switch method {
	case "Error":
		t.Error(args...)
	case "Errorf":
		t.Errorf(args[0].(string), args[1:]...)
	case "Fatal":
		t.Fatal(args...)
	case "Fatalf":
		t.Fatalf(args[0].(string), args[1:]...)
	case "Fail":
		t.Fail()
	case "FailNow":
		t.FailNow()
	}
}

type message struct {
	site, goroutine int
	text            string
	// where is the "file:line" of the first caller outside the test's
	// helpers when the failure was reported inside one ("": at site).
	where string
	// toTest: the message went to the test's own T (a subtest runs with
	// it too), not to another TestingT.
	toTest bool
}

func (e *execution) noteMessage(g *G, site int, to any, method string, args []any) {
	text := messageText(method, args)
	if len(e.messages) < 16 {
		// to is the T (or a test library's TestingT) the message went to:
		// the test's own T, or another one, such as testify's CollectT or
		// a test's mock T (new(testing.T), a recorder of Errorf), whose
		// messages do not fail the test (testFailure).
		toTest := e.bodyT != nil && to == any(e.bodyT)
		e.messages = append(e.messages, message{site, g.id, text, helperCaller(), toTest})
	}
}

// warmUps prepare, before the first execution and outside every bubble,
// standard-library state that is made lazily on first use and would
// otherwise belong to the bubble of the execution that first used it
// (RegisterWarmUp).
var warmUps []func()

// RegisterWarmUp installs a warm-up. The instrumenter generates the calls
// from an init function of the sites module, for the packages the test
// binary links: net's resolver makes its semaphore channel under a
// sync.Once on the first lookup (net.resolverConfig.ch); made inside an
// execution's bubble, the next execution's lookup, or the in-process rerun
// that confirms a race, used it from another bubble and the runtime killed
// the process ("send on synctest channel from outside bubble": datadog-go's
// statsd.New("localhost:8125"), exit 2 where go test passes).
func RegisterWarmUp(f func()) { warmUps = append(warmUps, f) }

// helperFuncs are the functions of the instrumented code that call
// Helper() (t.Helper(), or a TestingT's as in testify), by the names
// runtime frames give them (RegisterHelpers).
var helperFuncs map[string]bool

// RegisterHelpers installs the test helpers: a failure reported inside
// one is reported at the line that called it, as go test reports it. The
// instrumenter generates one call from an init function.
func RegisterHelpers(names []string) {
	helperFuncs = make(map[string]bool, len(names))
	for _, n := range names {
		helperFuncs[n] = true
	}
}

// litHelpers are the function literals that called Helper(), by frame
// name (NoteHelper): the compiler names them ("p.TestX.func1"), so they
// are learnt when they run, not listed by the instrumenter. A sync.Map: a
// literal may run on a goroutine gopct does not manage. Unlike go test,
// which marks a helper per T, the set is the process's and never shrinks:
// a literal that fails before its own Helper() call in its first run is
// reported inside it then, and at its caller in later executions. Only the
// report's position can differ; a replay compares the failure, not it.
var litHelpers sync.Map

// NoteHelper registers its caller, a function literal that has just
// called Helper(), as a test helper. The instrumenter puts a call after
// each Helper() statement of a function literal (assertion closures of
// table tests: check := func(got int) { t.Helper(); ... }).
func NoteHelper() {
	pcs := make([]uintptr, 1)
	if runtime.Callers(2, pcs) == 0 {
		return
	}
	f, _ := runtime.CallersFrames(pcs).Next()
	litHelpers.Store(withoutTypeArgs(f.Function), true)
}

// isHelper says whether a frame's function is a test helper.
func isHelper(function string) bool {
	name := withoutTypeArgs(function)
	if helperFuncs[name] {
		return true
	}
	_, ok := litHelpers.Load(name)
	return ok
}

// helperCaller returns the "file:line" of the first frame of the calling
// goroutine outside gopct's runtime and the test's helpers, when at least
// one helper frame lies between (the failure was reported inside a
// helper) and that frame is the tests' code (a _test.go file), or "".
// A helper called from elsewhere keeps the failure's position: gomock's
// Finish, run by a t.Cleanup closure in controller.go, keeps that of its
// Fatalf.
func helperCaller() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	inHelper := false
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, rtPrefix):
		case isHelper(f.Function):
			inHelper = true
		case inHelper && strings.HasSuffix(f.File, "_test.go"):
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		default:
			return ""
		}
		if !more {
			return ""
		}
	}
}

// withoutTypeArgs drops the "[...]" of a generic function's or type's
// frame name ("p.F[...]", "p.(*T[...]).M").
func withoutTypeArgs(name string) string {
	return strings.ReplaceAll(name, "[...]", "")
}
