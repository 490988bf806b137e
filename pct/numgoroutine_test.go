package pct

import (
	"strings"
	"testing"
)

// More goroutines of bubble 2, beside sampleDump's: one that code gopct
// does not instrument started (an HTTP handler, in the test's code at a
// memory access), the clock's, and an AfterFunc callback that has started.
const moreGoroutines = `

goroutine 20 [runnable, synctest bubble 2]:
gopct.invalid/rt.Load(0x1)
	/tmp/rt/gate.go:40 +0x1a
example.com/p.handler(0x1, 0x2)
	/src/p/x_test.go:30 +0x2a
net/http.(*conn).serve(0x1, {0x2, 0x3})
	/go/src/net/http/server.go:2100 +0x5c
created by net/http.(*Server).Serve in goroutine 19
	/go/src/net/http/server.go:3400 +0x4d

goroutine 21 [runnable, synctest bubble 2]:
gopct.invalid/rt.(*execution).clockTick()
	/tmp/rt/sched.go:710 +0x1a
created by time.goFunc
	/go/src/time/sleep.go:215 +0x2d

goroutine 22 [chan receive (durable), synctest bubble 2]:
gopct.invalid/rt.(*execution).park(0x1, 0x2)
	/tmp/rt/sched.go:600 +0x4a
gopct.invalid/rt.(*execution).comeBack(0x1, 0x2)
	/tmp/rt/sched.go:570 +0x4a
gopct.invalid/rt.adopt.func1()
	/tmp/rt/spawn.go:130 +0x3a
created by time.goFunc
	/go/src/time/sleep.go:215 +0x2d
`

func TestCountTestGoroutines(t *testing.T) {
	dump := sampleDump[:len(sampleDump)-1] + moreGoroutines
	want := map[string]int{
		"goroutine 1 ":  countProcess,   // go test's main goroutine
		"goroutine 7 ":  countNot,       // the worker's test goroutine, in runOne
		"goroutine 9 ":  countNot,       // the bubble's host
		"goroutine 11 ": countManaged,   // the test's goroutine, in t.Run
		"goroutine 12 ": countManaged,   // a goroutine the test started
		"goroutine 13 ": countManaged,   // one not yet run
		"goroutine 14 ": countNot,       // a decision goroutine
		"goroutine 5 ":  countNot,       // an earlier execution's
		"goroutine 20 ": countUnmanaged, // started by net/http
		"goroutine 21 ": countNot,       // the clock's
		"goroutine 22 ": countManaged,   // an AfterFunc callback
	}
	for _, block := range splitDump(dump) {
		g := parseGoroutine(block)
		id := g.header[:strings.Index(g.header, "[")]
		w, ok := want[id]
		if !ok {
			t.Fatalf("unexpected goroutine %q", g.header)
		}
		if got := testCount(g, "2"); got != w {
			t.Errorf("%s: class %d, want %d", g.header, got, w)
		}
		delete(want, id)
	}
	if len(want) > 0 {
		t.Errorf("not in the dump: %v", want)
	}
	if got := countTestGoroutines(dump, "2", true); got != 2 {
		t.Errorf("without the managed goroutines: %d, want 2 (main, net/http's)", got)
	}
	if got := countTestGoroutines(dump, "2", false); got != 6 {
		t.Errorf("with the managed goroutines: %d, want 6", got)
	}
}
