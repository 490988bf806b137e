package pct

import (
	"strings"
	"testing"
)

// A dump taken in bubble 2 as gopct's runtime leaves it: what the test
// would see under go test is what remains (stackdump.go).
const sampleDump = `goroutine 1 [chan receive]:
testing.(*T).Run(0xc000003c00, {0x5c, 0x8}, 0x6e)
	/go/src/testing/testing.go:2109 +0x4c5
main.main()
	_testmain.go:45 +0x9b

goroutine 7 [chan receive]:
gopct.invalid/rt.(*runner).runOne(0x1, 0x2, 0x3)
	/tmp/rt/runner.go:486 +0x9a
example.com/p.TestX(0xc000003dc0?)
	/src/p/x_test.go:10 +0x1b
testing.tRunner(0xc000003dc0, 0x6f)
	/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/go/src/testing/testing.go:2101 +0x4c5

goroutine 9 [synctest.Run (durable), synctest bubble 2]:
internal/synctest.Run(0x1)
	/go/src/runtime/synctest.go:218 +0x1e6
testing/synctest.Test(0x1, 0x2)
	/go/src/testing/synctest/synctest.go:290 +0x90
gopct.invalid/rt.(*runner).runOne.func1()
	/tmp/rt/runner.go:482 +0x65
created by gopct.invalid/rt.(*runner).runOne in goroutine 7
	/tmp/rt/runner.go:480 +0x85

goroutine 11 [chan receive (durable), synctest bubble 2]:
gopct.invalid/rt.(*execution).park(0x1, 0x2)
	/tmp/rt/sched.go:600 +0x4a
gopct.invalid/rt.(*execution).disable(0x1, 0x2, {0x3, 0x35})
	/tmp/rt/mutex.go:271 +0xcc
gopct.invalid/rt.runSubtest(0x327, 0x1, {0x2, 0x1f}, 0x3)
	/tmp/rt/subtests.go:82 +0x1a5
gopct.invalid/rt.TRun(0x327, 0x1, {0x2, 0x1f}, 0x3)
	/tmp/rt/api.go:516 +0x45
example.com/p.TestX.func1(0x1)
	/src/p/x_test.go:11 +0x33
gopct.invalid/rt.(*execution).runBody(0x1, 0x2, 0x3)
	/tmp/rt/runner.go:560 +0x88
testing.tRunner(0x1, 0x2)
	/go/src/testing/testing.go:2036 +0xea
created by testing/synctest.testingSynctestTest in goroutine 10
	/go/src/testing/testing.go:2150 +0x277

goroutine 12 [chan receive (durable), synctest bubble 2]:
gopct.invalid/rt.(*execution).park(0x1, 0x2)
	/tmp/rt/sched.go:600 +0x4a
gopct.invalid/rt.ChanRecv(0x1, 0x2)
	/tmp/rt/chan.go:100 +0x4a
example.com/p.(*Pool).worker(0x1)
	/src/p/pool.go:22 +0x2a
example.com/p.New.func1()
	/src/p/pool.go:15 +0x1d
gopct.invalid/rt.(*execution).runG(0x1, 0x2, 0x3)
	/tmp/rt/spawn.go:29 +0x5c
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x3a
created by gopct.invalid/rt.spawn in goroutine 11
	/tmp/rt/spawn.go:20 +0x1c5

goroutine 13 [chan receive (durable), synctest bubble 2]:
gopct.invalid/rt.(*execution).park(0x1, 0x2)
	/tmp/rt/sched.go:600 +0x4a
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:21 +0x3a
created by gopct.invalid/rt.spawn in goroutine 11
	/tmp/rt/spawn.go:20 +0x1c5

goroutine 14 [runnable, synctest bubble 2]:
gopct.invalid/rt.(*execution).decideIdle(0x1, 0x0)
	/tmp/rt/sched.go:700 +0x4a
created by gopct.invalid/rt.(*execution).handOff in goroutine 12
	/tmp/rt/sched.go:505 +0x1c5

goroutine 5 [chan receive (durable), synctest bubble 1]:
example.com/p.(*Pool).worker(0x1)
	/src/p/pool.go:22 +0x2a
created by gopct.invalid/rt.spawn in goroutine 4
	/tmp/rt/spawn.go:20 +0x1c5
`

func TestTestDump(t *testing.T) {
	got := testDump(sampleDump, "2")
	blocks := strings.Split(strings.TrimSpace(got), "\n\n")
	var heads []string
	for _, b := range blocks {
		heads = append(heads, strings.SplitN(b, "\n", 2)[0])
	}
	want := []string{
		"goroutine 1 [chan receive]:",  // the process's, as under go test
		"goroutine 11 [chan receive]:", // the parent in t.Run
		"goroutine 12 [runnable]:",     // a worker, waiting for its turn
		"goroutine 13 [runnable]:",     // started, not yet run
	}
	if strings.Join(heads, "|") != strings.Join(want, "|") {
		t.Fatalf("goroutines kept:\n%s\nwant:\n%s\ndump:\n%s", strings.Join(heads, "\n"), strings.Join(want, "\n"), got)
	}
	if strings.Contains(blocks[1], rtPrefix) || !strings.HasPrefix(strings.SplitN(blocks[1], "\n", 3)[1], "testing.(*T).Run(") {
		t.Errorf("the parent is not shown in testing.(*T).Run:\n%s", blocks[1])
	}
	worker := blocks[2]
	if strings.Contains(worker, rtPrefix) {
		t.Errorf("gopct's frames left in the worker:\n%s", worker)
	}
	if !strings.HasPrefix(strings.SplitN(worker, "\n", 3)[1], "example.com/p.(*Pool).worker(") {
		t.Errorf("the worker's top frame is not its own:\n%s", worker)
	}
	if !strings.Contains(worker, "created by example.com/p.New in goroutine 11\n\t/src/p/pool.go:15") {
		t.Errorf("created by does not name the go statement's function:\n%s", worker)
	}
}

func TestClosureSuffix(t *testing.T) {
	for in, want := range map[string]string{
		"p.New.func1": "p.New", "p.F.gowrap2": "p.F", "p.F.func1.2": "p.F.func1", "p.(*T).M.func3": "p.(*T).M", "p.F": "p.F",
	} {
		if got := closureSuffix.ReplaceAllString(in, ""); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

// TestParkedRunner: a dump taken while the main goroutine has not yet parked
// in t.Run's receive (a loaded machine; reactivex/rxgo under gopct ci, where
// goleak.VerifyNone's retries sleep in fake time) shows it parked there, as
// go test does for the whole test; other goroutines outside the bubble keep
// their state.
func TestParkedRunner(t *testing.T) {
	dump := `goroutine 1 [runnable]:
testing.(*T).Run(0x11285ee0008, {0x7cbc76?, 0x0?}, 0x7fe4d0)
	/usr/local/go/src/testing/testing.go:2109 +0x4e5
testing.runTests.func1(0x11285ee0008)
	/usr/local/go/src/testing/testing.go:2585 +0x3e
main.main()
	_testmain.go:628 +0x9b

goroutine 20 [runnable]:
example.com/p.spin()
	/src/p/p.go:3 +0x1d
created by example.com/p.init.0 in goroutine 1
	/src/p/p.go:9 +0x1c5
`
	got := testDump(dump, "2")
	blocks := strings.Split(strings.TrimSpace(got), "\n\n")
	if len(blocks) != 2 {
		t.Fatalf("%d goroutines kept, want 2:\n%s", len(blocks), got)
	}
	if h := strings.SplitN(blocks[0], "\n", 2)[0]; h != "goroutine 1 [chan receive]:" {
		t.Errorf("main goroutine: %q, want %q", h, "goroutine 1 [chan receive]:")
	}
	if h := strings.SplitN(blocks[1], "\n", 2)[0]; h != "goroutine 20 [runnable]:" {
		t.Errorf("other goroutine: %q, want it unchanged", h)
	}
	if !strings.Contains(blocks[0], "testing.go:2109 +0x4e5") {
		t.Errorf("frames changed:\n%s", blocks[0])
	}
}
