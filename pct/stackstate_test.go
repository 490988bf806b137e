package pct

import (
	"strings"
	"testing"
)

// realDump is a dump taken in an execution (bubble 1) of this test, by
// code gopct does not instrument, with paths shortened; goroutine 18 (in
// Cond.Wait for 3 minutes) is added by hand:
//
//	func TestDbg(t *testing.T) {
//		var mu sync.Mutex
//		var wg sync.WaitGroup
//		c := sync.NewCond(&mu)
//		ch := make(chan int)
//		mu.Lock()
//		wg.Add(1)
//		go func() { mu.Lock() }()
//		go func() { wg.Wait() }()
//		go func() { <-ch }()
//		go func() {
//			select {
//			case <-ch:
//			case <-time.After(time.Hour):
//			}
//		}()
//		go func() { time.Sleep(time.Hour) }()
//		go func() { c.L.Lock(); c.Wait() }()
//		go func() { for { time.Sleep(time.Millisecond) } }()
//		time.Sleep(time.Millisecond)
//		t.Run("sub", func(t *testing.T) { dump() })
//	}
const realDump = `goroutine 20 [running, synctest bubble 1]:
example.com/lib.Dump(...)
	/src/ng/lib/lib.go:16
example.com/ng.TestDbg.func1.9(0x359b0785c488)
	/src/ng/dbg_test.go:34 +0x72
gopct.invalid/rt.(*execution).runSubBody(0x359b077e88b8?, 0x359b077bbf28?, 0x58fe37?, 0x359b0783b408?, 0x359b077bbf28?)
	/tmp/rt/subtests.go:101 +0x4f
gopct.invalid/rt.runSubtest.func1.1()
	/tmp/rt/subtests.go:77 +0x27
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a840?, 0x58fce0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.runSubtest.func1()
	/tmp/rt/subtests.go:77 +0x9a
created by gopct.invalid/rt.runSubtest in goroutine 10
	/tmp/rt/subtests.go:75 +0x5d6

goroutine 1 [chan receive]:
testing.(*T).Run(0x359b0785c008, {0x60ac26?, 0x0?}, 0x61e260)
	/go/src/testing/testing.go:2109 +0x4e5
testing.runTests.func1(0x359b0785c008)
	/go/src/testing/testing.go:2585 +0x3e
testing.tRunner(0x359b0785c008, 0x359b07851c58)
	/go/src/testing/testing.go:2036 +0xea
testing.runTests({0x60cdc3, 0xe}, {0x60cdc3, 0xe}, 0x359b0778e3a8, {0x7abc00, 0x4, 0x4}, {0x0, 0x0, ...})
	/go/src/testing/testing.go:2583 +0x505
testing.(*M).Run(0x359b077fa820)
	/go/src/testing/testing.go:2443 +0x6ac
main.main()
	_testmain.go:52 +0x9b

goroutine 6 [chan receive]:
gopct.invalid/rt.(*runner).runOne(0x359b0782e500, 0x359b0783b408, 0x61e338)
	/tmp/rt/runner.go:487 +0xf1
gopct.invalid/rt.(*runner).execute(0x359b0782e500, 0x0, {0x624fe0, 0x359b078381b0}, 0x359b07790b00, 0x359b077da340, 0x61e338)
	/tmp/rt/runner.go:328 +0x29a
gopct.invalid/rt.(*runner).run(0x359b0782e500, 0x61e338)
	/tmp/rt/runner.go:194 +0xb89
gopct.invalid/rt.runTest(0x359b0785c248, 0x61e338)
	/tmp/rt/runner.go:32 +0x146
gopct.invalid/rt.RunTest(...)
	/tmp/rt/api.go:245
example.com/ng.TestDbg(0x359b0785c248?)
	/src/ng/dbg_test.go:12 +0x1b
testing.tRunner(0x359b0785c248, 0x61e260)
	/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/go/src/testing/testing.go:2101 +0x4c5

goroutine 7 [select]:
gopct.invalid/rt.(*runner).watchdog.func1()
	/tmp/rt/runner.go:673 +0x105
created by gopct.invalid/rt.(*runner).watchdog in goroutine 6
	/tmp/rt/runner.go:667 +0x78

goroutine 8 [synctest.Run (durable), synctest bubble 1]:
internal/synctest.Run(0x359b077da3a0)
	/go/src/runtime/synctest.go:218 +0x1e6
testing/synctest.Test(0x359b0785c248, 0x359b0778e450)
	/go/src/testing/synctest/synctest.go:290 +0x90
gopct.invalid/rt.(*runner).runOne.func1()
	/tmp/rt/runner.go:485 +0xdd
created by gopct.invalid/rt.(*runner).runOne in goroutine 6
	/tmp/rt/runner.go:482 +0xe5

goroutine 9 [chan receive (durable), synctest bubble 1]:
testing/synctest.testingSynctestTest(0x359b0785c248, 0x359b0778e450)
	/go/src/testing/testing.go:2151 +0x292
testing/synctest.Test.func1()
	/go/src/testing/synctest/synctest.go:291 +0x25
created by testing/synctest.Test in goroutine 8
	/go/src/testing/synctest/synctest.go:290 +0x90

goroutine 10 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x359b0783b408, 0x359b0781a210)
	/tmp/rt/sched.go:512 +0x45
gopct.invalid/rt.(*execution).disable(0x359b0783b408, 0x359b0781a210, {0x359b0779b380, 0x35})
	/tmp/rt/mutex.go:271 +0xcc
gopct.invalid/rt.runSubtest(0x1a, 0x359b0785c488, {0x60a406, 0x3}, 0x61e358)
	/tmp/rt/subtests.go:80 +0x645
gopct.invalid/rt.TRun(0x1a, 0x359b0785c488, {0x60a406, 0x3}, 0x61e358)
	/tmp/rt/api.go:520 +0x4f
example.com/ng.TestDbg.func1(0x359b0785c488)
	/src/ng/dbg_test.go:33 +0x2d9
gopct.invalid/rt.(*execution).runBody(0x359b0783b408, 0x359b0785c488, 0x61e338)
	/tmp/rt/runner.go:569 +0x3c7
gopct.invalid/rt.(*runner).runOne.func1.2(0x359b0785c488?)
	/tmp/rt/runner.go:485 +0x25
testing.tRunner(0x359b0785c488, 0x359b0778e450)
	/go/src/testing/testing.go:2036 +0xea
created by testing/synctest.testingSynctestTest in goroutine 9
	/go/src/testing/testing.go:2150 +0x277

goroutine 11 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x359b0783b408, 0x359b0781a2c0)
	/tmp/rt/sched.go:512 +0x45
gopct.invalid/rt.(*execution).disable(0x359b0783b408, 0x359b0781a2c0, {0x359b0779b340, 0x31})
	/tmp/rt/mutex.go:271 +0xcc
gopct.invalid/rt.(*execution).waitOn(0x359b0783b408, 0x359b0781a2c0, 0x359b07806ac0?, {0x359b07798a50, 0x25})
	/tmp/rt/mutex.go:238 +0xf3
gopct.invalid/rt.(*execution).lockWait(0x359b0783b408, 0x359b0781a2c0, 0x6, {0x622108, 0x359b07790b30}, 0x359b07806ac0, 0x0)
	/tmp/rt/mutex.go:94 +0x131
gopct.invalid/rt.mutexLock(0x6, 0x359b07790b30)
	/tmp/rt/mutex.go:77 +0x152
gopct.invalid/rt.Lock(...)
	/tmp/rt/api.go:309
example.com/ng.TestDbg.func1.1()
	/src/ng/dbg_test.go:19 +0x1c
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a2c0?, 0x359b077bbfd0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 12 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x359b0783b408, 0x359b0781a370)
	/tmp/rt/sched.go:512 +0x45
gopct.invalid/rt.(*execution).disable(0x359b0783b408, 0x359b0781a370, {0x359b07798a20, 0x2e})
	/tmp/rt/mutex.go:271 +0xcc
gopct.invalid/rt.wgWait(0x8, 0x359b07790b40)
	/tmp/rt/models.go:52 +0x185
gopct.invalid/rt.WGWait(...)
	/tmp/rt/api.go:353
example.com/ng.TestDbg.func1.2()
	/src/ng/dbg_test.go:20 +0x1c
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a370?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 13 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.Recv2[...].func2()
	/tmp/rt/api.go:286 +0x2e
gopct.invalid/rt.(*execution).blockIn(0x359b0783b408, 0x359b0781a420, 0x359b077e8460, {0x359b07796090, 0x17}, 0x359b077eaed8)
	/tmp/rt/sched.go:590 +0xfa
gopct.invalid/rt.(*execution).chanOp(0x359b0783b408, 0x359b0781a420, 0xa, 0x359b077e8460, 0x359b077eaf00, 0x359b077eaed8)
	/tmp/rt/chan.go:25 +0x108
gopct.invalid/rt.Recv2[...](0xa, 0x359b077e8460)
	/tmp/rt/api.go:279 +0xc8
gopct.invalid/rt.Recv[...](...)
	/tmp/rt/api.go:268
example.com/ng.TestDbg.func1.3()
	/src/ng/dbg_test.go:21 +0x25
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a420?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 14 [select (durable), synctest bubble 1]:
example.com/ng.TestDbg.func1.4.2()
	/src/ng/dbg_test.go:25 +0x4c
gopct.invalid/rt.selectOp.func1()
	/tmp/rt/chan.go:106 +0x22
gopct.invalid/rt.(*execution).blockIn(0x359b0783b408, 0x359b0781a4d0, 0x0, {0x359b077989c0, 0x25}, 0x359b077f1ec8)
	/tmp/rt/sched.go:590 +0xfa
gopct.invalid/rt.selectOp(0xc, 0x2, 0x0, 0x359b077f1f38, 0x359b077f1f20)
	/tmp/rt/chan.go:106 +0x2f2
gopct.invalid/rt.Select(...)
	/tmp/rt/api.go:303
example.com/ng.TestDbg.func1.4()
	/src/ng/dbg_test.go:25 +0x77
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a4d0?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 15 [sleep (durable), synctest bubble 1]:
time.Sleep(0x34630b8a3e8)
	/go/src/runtime/time.go:361 +0x145
gopct.invalid/rt.sleepOp.func1()
	/tmp/rt/models.go:176 +0x17
gopct.invalid/rt.(*execution).blockIn(0x359b0783b408, 0x359b0781a580, 0x0, {0x359b0779e240, 0x1d}, 0x359b077ebf08)
	/tmp/rt/sched.go:590 +0xfa
gopct.invalid/rt.sleepOp(0xf, 0x34630b8a000)
	/tmp/rt/models.go:176 +0x125
gopct.invalid/rt.Sleep(...)
	/tmp/rt/api.go:379
example.com/ng.TestDbg.func1.5()
	/src/ng/dbg_test.go:28 +0x25
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a580?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 16 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x359b0783b408, 0x359b0781a630)
	/tmp/rt/sched.go:512 +0x45
gopct.invalid/rt.(*execution).disable(0x359b0783b408, 0x359b0781a630, {0x359b0779b280, 0x31})
	/tmp/rt/mutex.go:271 +0xcc
gopct.invalid/rt.(*execution).waitOn(0x359b0783b408, 0x359b0781a630, 0x359b07806ac0?, {0x359b07798960, 0x25})
	/tmp/rt/mutex.go:238 +0xf3
gopct.invalid/rt.(*execution).lockWait(0x359b0783b408, 0x359b0781a630, 0x12, {0x622108, 0x359b07790b30}, 0x359b07806ac0, 0x0)
	/tmp/rt/mutex.go:94 +0x131
gopct.invalid/rt.lockOp(0x12, {0x622108, 0x359b07790b30}, 0x0)
	/tmp/rt/mutex.go:52 +0xd9
gopct.invalid/rt.lockerOp(0x11?, {0x622108?, 0x359b07790b30?}, 0x0?)
	/tmp/rt/mutex.go:307 +0x85
gopct.invalid/rt.LockerLock(...)
	/tmp/rt/api.go:339
example.com/ng.TestDbg.func1.6()
	/src/ng/dbg_test.go:29 +0x69
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a630?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 17 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x359b0783b408, 0x359b0781a6e0)
	/tmp/rt/sched.go:512 +0x45
gopct.invalid/rt.(*execution).comeBack(0x359b0783b408, 0x359b0781a6e0)
	/tmp/rt/sched.go:627 +0x25f
gopct.invalid/rt.(*execution).blockIn(0x359b0783b408, 0x359b0781a6e0, 0x0, {0x359b0779e1e0, 0x1d}, 0x359b077f0f08)
	/tmp/rt/sched.go:591 +0x109
gopct.invalid/rt.sleepOp(0x15, 0xf4240)
	/tmp/rt/models.go:176 +0x125
gopct.invalid/rt.Sleep(...)
	/tmp/rt/api.go:379
example.com/ng.TestDbg.func1.7()
	/src/ng/dbg_test.go:30 +0x1d
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a6e0?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9

goroutine 18 [chan receive (durable), 3 minutes, synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x359b0783b408, 0x359b0781a790)
	/tmp/rt/sched.go:512 +0x45
gopct.invalid/rt.(*execution).disable(0x359b0783b408, 0x359b0781a790, {0x359b0779b280, 0x31})
	/tmp/rt/mutex.go:271 +0xcc
gopct.invalid/rt.condWait(0x13, 0x359b07790b60)
	/tmp/rt/models.go:116 +0x185
gopct.invalid/rt.CondWait(...)
	/tmp/rt/api.go:368
example.com/ng.TestDbg.func1.8()
	/src/ng/dbg_test.go:31 +0x69
gopct.invalid/rt.(*execution).runG(0x359b0783b408?, 0x359b0781a790?, 0x0?)
	/tmp/rt/spawn.go:30 +0x56
gopct.invalid/rt.spawn.func1()
	/tmp/rt/spawn.go:22 +0x45
created by gopct.invalid/rt.spawn in goroutine 10
	/tmp/rt/spawn.go:20 +0x2f9
`

// TestDumpStates: every goroutine of the test shows the state go test's
// dump shows for the same wait (measured: the test above natively), without
// synctest's "(durable)" and bubble marks.
func TestDumpStates(t *testing.T) {
	want := []string{
		"goroutine 20 [running]:",
		"goroutine 1 [chan receive]:",               // go test's main goroutine
		"goroutine 10 [chan receive]:",              // in t.Run
		"goroutine 11 [sync.Mutex.Lock]:",           // mu.Lock()
		"goroutine 12 [sync.WaitGroup.Wait]:",       // wg.Wait()
		"goroutine 13 [chan receive]:",              // <-ch, for real
		"goroutine 14 [select]:",                    // for real
		"goroutine 15 [sleep]:",                     // for real
		"goroutine 16 [sync.Mutex.Lock]:",           // c.L.Lock(), a sync.Locker
		"goroutine 17 [runnable]:",                  // back from its sleep, waiting for its turn
		"goroutine 18 [sync.Cond.Wait, 3 minutes]:", // c.Wait()
	}
	var got []string
	for _, b := range splitDump(testDump(realDump, "1")) {
		got = append(got, strings.SplitN(b, "\n", 2)[0])
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("headers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNativeHeader(t *testing.T) {
	for _, c := range []struct{ in, state, want string }{
		{"goroutine 7 [chan receive (durable), synctest bubble 3]:", "", "goroutine 7 [chan receive]:"},
		{"goroutine 7 [select (durable), 2 minutes, locked to thread, synctest bubble 3]:", "", "goroutine 7 [select, 2 minutes, locked to thread]:"},
		{"goroutine 7 [chan receive (durable), 2 minutes, synctest bubble 3]:", "runnable", "goroutine 7 [runnable]:"},
		{"goroutine 7 [chan receive (durable), synctest bubble 3 labels:{\"a\": \"b, c\"}]:", "sync.Mutex.Lock", "goroutine 7 [sync.Mutex.Lock labels:{\"a\": \"b, c\"}]:"},
		{"goroutine 7 [running]:", "", "goroutine 7 [running]:"},
	} {
		if got := nativeHeader(c.in, c.state); got != c.want {
			t.Errorf("nativeHeader(%q, %q) = %q, want %q", c.in, c.state, got, c.want)
		}
	}
}
