package pct

import (
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// Subtests under control. A synctest bubble forbids t.Run and t.Parallel,
// so gopct plays the testing package's part: each subtest selected by the
// hunt's -run pattern runs on a managed goroutine of its own, with the
// test's t, and the scheduler orders it as go test would:
//
//   - t.Run returns when the subtest's function returns, or when it calls
//     t.Parallel;
//   - a parallel subtest waits at t.Parallel until its parent's function
//     has returned; then the parent's parallel subtests run together;
//   - the parent is complete (its cleanups run, its own parent's t.Run
//     returns) once they have all finished.
//
// A subtest's t.Cleanup functions run when it is complete, last first,
// before its parent's t.Run returns, as go test runs them (TCleanup): on the
// shared t they would run only after the top-level test's function and its
// deferred calls (gocron's subtests shut their scheduler down in a cleanup,
// and the test's deferred goleak check saw the scheduler still running).
//
// The same edges order memory for the race detector. A test that never
// calls t.Run has no frame, and its schedule is not touched.

// testFrame is a running test function: the top-level test's (depth 0) or
// a subtest's.
type testFrame struct {
	g        *G
	t        *testing.T // the t its function was given (shared: the test's)
	name     string
	depth    int
	parent   *testFrame // nil for the top-level test
	parallel bool       // called t.Parallel
	started  bool       // its parent's t.Run has returned
	released bool       // its function returned: its parallel subtests may run
	waiting  bool       // g waits for its parallel subtests
	paused   []*G       // its parallel subtests waiting at t.Parallel
	running  int        // its parallel subtests not finished
	cleanups []func()   // registered by t.Cleanup in its function, run last first
}

type frameKey struct{ g *G }

// frameOf returns the frame of test function run by g. The top-level
// test's frame is made on its first t.Run. A goroutine that is not a test
// function calling t.Run gets a frame that is already released: nobody
// waits for it to return.
func (e *execution) frameOf(g *G) *testFrame {
	if f, ok := e.models[frameKey{g}].(*testFrame); ok {
		return f
	}
	f := &testFrame{g: g, released: g != e.gs[0]}
	e.models[frameKey{g}] = f
	return f
}

func frameObj(f *testFrame) uintptr { return objOf(unsafe.Pointer(f)) }

// doneObj is the object through which a frame's parallel subtests order
// their end before the frame completes.
func doneObj(f *testFrame) uintptr { return objOf(unsafe.Pointer(&f.running)) }

// runSubtest is t.Run(name, f) inside an execution.
func runSubtest(site int, t *testing.T, name string, f func(*testing.T)) bool {
	e, g := self()
	parent := e.frameOf(g)
	if !subMatches(parent.depth, name) {
		e.subSkipped = true
		return true
	}
	if parent.depth == len(subFilters)-1 {
		e.subMatched = true // a subtest of -run's deepest level runs
	}
	e.point(g, site)
	c := e.newG(g, site)
	fr := &testFrame{g: c, t: t, name: name, depth: parent.depth + 1, parent: parent}
	e.models[frameKey{c}] = fr
	if e.observing {
		e.emit(Event{Kind: EvSpawn, G: g.id, Other: c.id, Site: site, Op: KindGo})
	}
	go func() {
		e.park(c)
		e.runG(c, func() { e.runSubBody(site, fr, t, f) })
	}()
	for !fr.started {
		e.disable(g, "in t.Run at "+sitePos(site)+", waiting for subtest "+name)
	}
	e.note(EvAcquire, g, site, frameObj(fr))
	return !t.Failed()
}

// runSubBody runs a subtest's function on its goroutine, then its parallel
// subtests, then tells its parent.
func (e *execution) runSubBody(site int, fr *testFrame, t *testing.T, f func(*testing.T)) {
	defer func() {
		if r := recover(); r != nil {
			e.failPanic(fr.g, r)
			return
		}
		if e.aborted.Load() {
			return
		}
		// Returned, or t.FailNow/t.SkipNow: the subtest is over either way.
		e.endFrame(fr, site)
		// Its parent goes on even if a cleanup calls t.FailNow.
		defer e.subtestDone(fr, site)
		runCleanups(fr)
	}()
	f(t)
}

// runCleanups runs the cleanups of frame fr, last first. The rest still run
// when one ends its goroutine (t.FailNow) or panics, as in go test.
func runCleanups(fr *testFrame) {
	n := len(fr.cleanups)
	if n == 0 {
		return
	}
	f := fr.cleanups[n-1]
	fr.cleanups = fr.cleanups[:n-1]
	defer runCleanups(fr)
	f()
}

// subtestCleanup registers f as a cleanup of the subtest the calling
// goroutine runs, if it runs one and tb is the t its function was given,
// or of the subtest that started it while that subtest's function runs
// (go test gives the goroutine the subtest's t); otherwise it says no, and
// t.Cleanup registers f as usual.
func subtestCleanup(tb testing.TB, f func()) bool {
	fr := subtestOf(tb, true)
	if fr == nil {
		return false
	}
	if _, g := self(); fr.g != g && fr.released {
		return false // its cleanups may have run: a late one stays the test's
	}
	fr.cleanups = append(fr.cleanups, f)
	return true
}

// subtestOf is the subtest the calling goroutine runs, when it runs one
// inside an execution and tb is the t its function was given; nil
// otherwise. With creators, a goroutine that runs no test function is
// taken for the one that started it (directly or through others), as go
// test gives it the t of the test that started it.
func subtestOf(tb testing.TB, creators bool) *testFrame {
	e, g := self()
	if e == nil || g == nil {
		return nil
	}
	fr, ok := e.models[frameKey{g}].(*testFrame)
	for !ok && creators && g.parent >= 0 {
		g = e.gs[g.parent]
		fr, ok = e.models[frameKey{g}].(*testFrame)
	}
	if !ok || fr.parent == nil || fr.t == nil || testing.TB(fr.t) != tb {
		return nil
	}
	return fr
}

// TName is t.Name() (b.Name(), tb.Name()). Inside an execution a
// subtest's function is given the test's own t (runSubtest), whose Name is
// the top-level test's: gammazero/chanqueue's TestStop picks its queue by
// t.Name() ("TestStop/ring") and panicked "unknown test: TestStop" in every
// execution (sweep fresh33). Called on the subtest's goroutine, it is the
// subtests' path below the test's name, each with its spaces made
// underscores, as go test names them (a repeated name's #01 suffix is not
// given); on a goroutine the subtest started, the same (gaps34: it said
// the top-level test's name). Elsewhere (the top-level test, or another
// t), the method's own answer.
func TName(site int, tb testing.TB) string {
	name := tb.Name()
	fr := subtestOf(tb, true)
	if fr == nil {
		return name
	}
	var path []string
	for ; fr.parent != nil; fr = fr.parent {
		path = append(path, strings.ReplaceAll(fr.name, " ", "_"))
	}
	slices.Reverse(path)
	return name + "/" + strings.Join(path, "/")
}

// subtestDone lets the parent know that the subtest fr has finished.
func (e *execution) subtestDone(fr *testFrame, site int) {
	p := fr.parent
	if !fr.parallel {
		e.note(EvRelease, fr.g, site, frameObj(fr))
		fr.started = true
		e.enable(p.g) // its t.Run returns
		return
	}
	e.note(EvRelease, fr.g, site, doneObj(p))
	p.running--
	if p.running == 0 && p.waiting {
		e.enable(p.g)
	}
}

// endFrame runs when the function of frame fr has returned: its parallel
// subtests, paused at t.Parallel, now run, and fr's goroutine waits until
// they have finished.
func (e *execution) endFrame(fr *testFrame, site int) {
	fr.released = true
	if fr.running == 0 {
		return
	}
	e.note(EvRelease, fr.g, site, frameObj(fr))
	e.wakeAll(&fr.paused)
	fr.paused = nil
	fr.waiting = true
	for fr.running > 0 {
		e.disable(fr.g, "test function returned; waiting for its parallel subtests")
	}
	fr.waiting = false
	e.note(EvAcquire, fr.g, site, doneObj(fr))
}

// endTopFrame is endFrame for the top-level test, if it ran subtests.
func (e *execution) endTopFrame(g0 *G) {
	if fr, ok := e.models[frameKey{g0}].(*testFrame); ok {
		e.endFrame(fr, -1)
	}
}

// parallelSubtest is t.Parallel() inside an execution. Only a subtest
// pauses; the top-level test already runs alone.
func parallelSubtest(site int) {
	e, g := self()
	fr, ok := e.models[frameKey{g}].(*testFrame)
	if !ok || fr.parent == nil || fr.parallel {
		return
	}
	e.point(g, site)
	p := fr.parent
	fr.parallel, fr.started = true, true
	p.running++
	e.note(EvRelease, g, site, frameObj(fr))
	e.enable(p.g) // its t.Run returns
	if !p.released {
		p.paused = append(p.paused, g)
	}
	for !p.released {
		e.disable(g, "at t.Parallel "+sitePos(site)+", waiting for the parent test function to return")
	}
	e.note(EvAcquire, g, site, frameObj(p))
}

// subFilters select the subtests that run: level i (a subtest at depth
// i+1) must match subFilters[i]; deeper subtests all run (nil: all).
var subFilters []*regexp.Regexp

// compileSubFilter splits the part of -run after the top-level test's
// pattern into its levels, as go test does.
func compileSubFilter(sub string) ([]*regexp.Regexp, error) {
	if sub == "" {
		return nil, nil
	}
	var out []*regexp.Regexp
	for _, level := range SplitLevels(sub) {
		re, err := regexp.Compile(level)
		if err != nil {
			return nil, err
		}
		out = append(out, re)
	}
	return out, nil
}

// SplitLevels splits a -run pattern at the slashes that are not inside
// brackets or parentheses, as go test does: one pattern per subtest level.
func SplitLevels(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// subMatches says whether a subtest of a test at depth parentDepth runs.
// Names are rewritten as testing does (spaces become '_').
func subMatches(parentDepth int, name string) bool {
	if parentDepth >= len(subFilters) {
		return true
	}
	return subFilters[parentDepth].MatchString(strings.ReplaceAll(name, " ", "_"))
}

// TSkip is t.Skip(args...) (b.Skip, tb.Skip); TSkipf and TSkipNow are
// t.Skipf and t.SkipNow. A subtest's function is given the test's own t,
// and the real Skip marked that t skipped: the whole test then read as one
// that skips itself, with nothing to hunt. k8s.io/klog/v2's TestKlogrOutput
// and TestTextloggerOutput (sweep fresh34) skip 4 of their ~40 table
// subtests ("vmodule" cases), and gopct hunted neither. Called on the
// subtest's goroutine, a skip now ends that subtest only (its cleanups run
// and its parent's t.Run returns, as after go test's SkipNow); elsewhere it
// is the method itself.
func TSkip(site int, tb testing.TB, args ...any) {
	lateReport(site, tb, "Skip", args) // Skip logs its operands first
	if subtestOf(tb, false) != nil {
		runtime.Goexit()
	}
	tb.Helper()
	tb.Skip(args...)
}

// TSkipf is t.Skipf(format, args...) (see TSkip).
func TSkipf(site int, tb testing.TB, format string, args ...any) {
	lateReport(site, tb, "Skipf", append([]any{format}, args...))
	if subtestOf(tb, false) != nil {
		runtime.Goexit()
	}
	tb.Helper()
	tb.Skipf(format, args...)
}

// TSkipNow is t.SkipNow() (see TSkip).
func TSkipNow(site int, tb testing.TB) {
	if subtestOf(tb, false) != nil {
		runtime.Goexit()
	}
	tb.Helper()
	tb.SkipNow()
}

// TCleanupOf is x.Cleanup(f) through an interface of the code's own made of
// testing.TB's methods (instrument's tbLikeMethod): TCleanup for a
// testing.TB, the method itself otherwise.
func TCleanupOf(site int, x interface{ Cleanup(func()) }, f func()) {
	if tb, ok := x.(testing.TB); ok {
		TCleanup(site, tb, f)
		return
	}
	x.Cleanup(f)
}

// TSkipOf is x.Skip(args...) through such an interface: TSkip for a
// testing.TB. Helper here too: TSkip's marks only TSkip.
func TSkipOf(site int, x interface{ Skip(...any) }, args ...any) {
	tb, ok := x.(testing.TB)
	if !ok {
		x.Skip(args...)
		return
	}
	tb.Helper()
	TSkip(site, tb, args...)
}

// TSkipfOf is x.Skipf(format, args...) through such an interface.
func TSkipfOf(site int, x interface{ Skipf(string, ...any) }, format string, args ...any) {
	tb, ok := x.(testing.TB)
	if !ok {
		x.Skipf(format, args...)
		return
	}
	tb.Helper()
	TSkipf(site, tb, format, args...)
}

// TSkipNowOf is x.SkipNow() through such an interface.
func TSkipNowOf(site int, x interface{ SkipNow() }) {
	tb, ok := x.(testing.TB)
	if !ok {
		x.SkipNow()
		return
	}
	tb.Helper()
	TSkipNow(site, tb)
}

// TNameOf is x.Name() through such an interface: TName for a testing.TB.
func TNameOf(site int, x interface{ Name() string }) string {
	if tb, ok := x.(testing.TB); ok {
		return TName(site, tb)
	}
	return x.Name()
}
