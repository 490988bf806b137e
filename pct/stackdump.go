package pct

import (
	"regexp"
	"runtime"
	"strings"
)

// Goroutine dumps as the test would see them under go test.
//
// Leak checkers read runtime.Stack(buf, true) and call every goroutine they
// do not expect a leak: go.uber.org/goleak's Find and VerifyNone, used by
// many modules' tests (`defer goleak.VerifyNone(t)`). Inside an execution
// the dump also holds gopct's own goroutines: the test's goroutine waiting
// for the execution (runner.runOne), the watchdog, the goroutines that host
// the synctest bubble, goroutines left blocked by earlier executions in
// their bubbles, and the scheduler's decision goroutines; and the test's own
// goroutines show gopct's frames (the parked t.Run of a parent test is
// rt.runSubtest, not testing.(*T).Run, so goleak's filter of the testing
// package's goroutines misses it). goleak's own tests failed in execution #0
// of every hunt ("found unexpected goroutines: ... gopct.invalid/rt.(*runner).runOne").
// The instrumenter rewrites runtime.Stack into Stack, which gives, inside an
// execution, the dump go test would give: gopct's goroutines left out,
// gopct's frames dropped from the others, a parent parked in t.Run or
// t.Parallel shown there, and "created by" naming the function with the go
// statement (the instrumenter's wrapper closure runs it on rt.spawn).

const rtPrefix = "gopct.invalid/rt."

// Stack is runtime.Stack(buf, all).
func Stack(buf []byte, all bool) int {
	if !all {
		return copy(buf, ownStack())
	}
	if current.Load() == nil {
		return runtime.Stack(buf, all)
	}
	return copy(buf, testDump(fullDump(), currentBubble()))
}

// ownStack is the calling goroutine's stack as runtime.Stack(buf, false)
// gives it to the caller of Stack: without Stack's own frame on top (and
// gopct's frames below, the header's synctest marks), in and out of
// executions. A stack trace the code records for itself (OpenTelemetry's
// span.RecordError with trace.WithStackTrace) starts with the function that
// called runtime.Stack, and tests check it: go.opentelemetry.io/otel/sdk's
// TestRecordErrorWithStackTrace failed in every execution ("gopct.invalid/rt.Stack(...)
// not prefixed with go.opentelemetry.io/otel/sdk/trace.recordStackTrace").
func ownStack() string {
	own := runtimeStack(false, 8<<10)
	block := strings.TrimRight(own, "\n")
	header, _, _ := strings.Cut(block, "\n")
	g, ok := testGoroutine(block, bubbleOf(header))
	if !ok {
		return own
	}
	return g + "\n"
}

// fullDump is the runtime's dump of every goroutine.
func fullDump() string { return runtimeStack(true, 64<<10) }

// runtimeStack is runtime.Stack(buf, all) whole, in a buffer of size
// bytes at first, doubled until it fits.
func runtimeStack(all bool, size int) string {
	buf := make([]byte, size)
	for {
		n := runtime.Stack(buf, all)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// testDump keeps, of a dump taken in the bubble named bubble, the
// goroutines go test would show, each rewritten by testGoroutine.
func testDump(dump, bubble string) string {
	var out []string
	for _, block := range strings.Split(strings.TrimRight(dump, "\n"), "\n\n") {
		if b, ok := testGoroutine(block, bubble); ok {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n\n") + "\n"
}

// frame is one call of a dump: the function line and its "\tfile:line"
// line ("" when absent, as for "...additional frames elided...").
type frame struct{ fn, loc string }

func (f frame) rt() bool { return strings.HasPrefix(f.fn, rtPrefix) }

// name is the function's name without its arguments.
func (f frame) name() string {
	if i := strings.LastIndexByte(f.fn, '('); i > 0 {
		return f.fn[:i]
	}
	return f.fn
}

// goroutine is one goroutine of a dump, parsed.
type goroutine struct {
	header  string  // "goroutine 7 [chan receive (durable), synctest bubble 3]:"
	frames  []frame // innermost first
	created *frame  // its "created by" line, or nil
	hasRT   bool    // a frame, or its creator, is gopct's
}

// parseGoroutine splits one goroutine of a dump into its lines.
func parseGoroutine(block string) goroutine {
	lines := strings.Split(block, "\n")
	g := goroutine{header: lines[0]}
	for i := 1; i < len(lines); i++ {
		f := frame{fn: lines[i]}
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			f.loc = lines[i+1]
			i++
		}
		if strings.HasPrefix(f.fn, "created by ") {
			g.created = &f
			g.hasRT = g.hasRT || strings.HasPrefix(f.fn, "created by "+rtPrefix)
			continue
		}
		g.hasRT = g.hasRT || f.rt()
		g.frames = append(g.frames, f)
	}
	return g
}

// bubbleHost says whether g is one of the goroutines that host a synctest
// bubble (the one in synctest.Test, and the bubble's root waiting for the
// test function's goroutine): gopct's, not the test's.
func (g goroutine) bubbleHost() bool {
	if len(g.frames) == 0 {
		return false
	}
	switch g.frames[0].name() {
	case "internal/synctest.Run", "testing/synctest.testingSynctestTest":
		return true
	}
	return false
}

// testGoroutine rewrites one goroutine of a dump; false: leave it out.
func testGoroutine(block, bubble string) (string, bool) {
	g := parseGoroutine(block)
	header, frames, created, hasRT := g.header, g.frames, g.created, g.hasRT
	if b := bubbleOf(header); b != bubble {
		// Another execution's bubble, or outside every bubble: gopct's
		// goroutines there go; the others (the main goroutine in
		// testing.(*T).Run, os/signal's) are the process's, as under go
		// test.
		if b != "" || hasRT {
			return "", false
		}
		return parkedRunner(g, block), true
	}
	if g.bubbleHost() {
		return "", false
	}
	var user []frame
	var entry, parked string
	for _, f := range frames {
		switch f.name() {
		case rtPrefix + "runSubtest":
			parked = "testing.(*T).Run"
		case rtPrefix + "parallelSubtest":
			parked = "testing.(*T).Parallel"
		case rtPrefix + "spawn.func1", rtPrefix + "runSubtest.func1":
			entry = f.name()
		}
		if !f.rt() {
			user = append(user, f)
		}
	}
	header = nativeHeader(header, nativeState(frames))
	if len(user) == 0 {
		// gopct's own (a decision goroutine), or a managed goroutine
		// not started yet: only the latter is the test's.
		if entry == "" {
			return "", false
		}
		return strings.Join(append([]string{header}, strings.Split(block, "\n")[1:]...), "\n"), true
	}
	if parked != "" {
		// go test's parent waits in t.Run (t.Parallel) for a channel.
		user = append([]frame{{fn: parked + "(...)", loc: "\t" + runtime.GOROOT() + "/src/testing/testing.go"}}, user...)
	}
	out := []string{header}
	for _, f := range user {
		out = append(out, f.fn)
		if f.loc != "" {
			out = append(out, f.loc)
		}
	}
	if created != nil {
		c := *created
		from := ""
		if i := strings.LastIndex(c.fn, " in goroutine "); i >= 0 {
			from = c.fn[i:]
		}
		switch entry {
		case rtPrefix + "spawn.func1":
			// The go statement's function, run by the closure the
			// instrumenter wraps it in (or the user's own literal):
			// created by the function that encloses that closure.
			last := user[len(user)-1]
			c = frame{fn: "created by " + closureSuffix.ReplaceAllString(last.name(), "") + from, loc: last.loc}
		case rtPrefix + "runSubtest.func1":
			c = frame{fn: "created by testing.(*T).Run" + from, loc: "\t" + runtime.GOROOT() + "/src/testing/testing.go"}
		}
		out = append(out, c.fn)
		if c.loc != "" {
			out = append(out, c.loc)
		}
	}
	return strings.Join(out, "\n"), true
}

// parkedRunner shows the main goroutine, which runs the top-level test with
// testing.(*T).Run (testing.runTests starts it), parked in its receive of
// the test's end, as it is for the whole test under go test. A dump taken
// inside an execution could find it not parked yet: "runnable" at the
// receive, preempted right after `go tRunner(t, f)` on a loaded machine,
// while the test's goroutine ran its first execution. go.uber.org/goleak
// (v1.1.10) ignores it only in state "chan receive", and its retries, which
// natively wait real time for such a goroutine, sleep on the execution's
// fake clock: reactivex/rxgo's Test_Observable_SkipLast, Contain and
// Skip_Parallel failed in execution #0 under gopct ci ("found unexpected
// goroutines: [Goroutine 1 in state runnable, with testing.(*T).Run on top
// of the stack").
func parkedRunner(g goroutine, block string) string {
	if len(g.frames) == 0 || strings.HasPrefix(g.header, "goroutine 1 [chan receive") {
		return block
	}
	switch g.frames[0].name() {
	case "testing.(*T).Run", "testing.runTests":
	default:
		return block
	}
	if !strings.HasPrefix(g.header, "goroutine 1 [") {
		return block
	}
	return strings.Replace(block, g.header, nativeHeader(g.header, "chan receive"), 1)
}

// closureSuffix is the part of a function literal's name that follows the
// enclosing function's: F.func1, F.gowrap1, F.func1.2.
var closureSuffix = regexp.MustCompile(`\.(func|gowrap)?[0-9]+$`)

// bubbleOf is the synctest bubble a dump's goroutine header names ("" if
// none): "goroutine 7 [chan receive (durable), synctest bubble 3]:".
func bubbleOf(header string) string {
	const mark = "synctest bubble "
	i := strings.Index(header, mark)
	if i < 0 {
		return ""
	}
	id := header[i+len(mark):]
	if j := strings.IndexAny(id, ",]"); j >= 0 {
		id = id[:j]
	}
	return id
}
