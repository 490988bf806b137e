package pct

import "testing"

// A goroutine handed off while it scanned an io.Pipe, as a dump shows it.
const pipeReaderBlock = `goroutine 9 [select (durable), synctest bubble 1]:
io.(*pipe).read(0x87100166120, {0x871002fc002, 0xffe, 0x1?})
	/usr/local/go/src/io/pipe.go:57 +0xa7
io.(*PipeReader).Read(0x871002fc000?, {0x871002fc002?, 0x1000?, 0x9000000000000?})
	/usr/local/go/src/io/pipe.go:134 +0x1a
bufio.(*Scanner).Scan(0x87100142ed0)
	/usr/local/go/src/bufio/scan.go:219 +0x47b
example.com/nh.TestReaderLeft.func1.1()
	/tmp/nh/nh_test.go:74 +0xbc
gopct.invalid/rt.(*execution).runG(0x871001eeb08?, 0x871001d6180?, 0x87100131fd0?)
	/root/.cache/gopct/bin/runtimes/rt-7c7b7cb582528e23a2790004/spawn.go:31 +0x56
gopct.invalid/rt.spawn.func1()
	/root/.cache/gopct/bin/runtimes/rt-7c7b7cb582528e23a2790004/spawn.go:23 +0x45
created by gopct.invalid/rt.spawn in goroutine 8
	/root/.cache/gopct/bin/runtimes/rt-7c7b7cb582528e23a2790004/spawn.go:21 +0x2f9`

// The same goroutine parked at a scheduling point: not handed off.
const parkedBlock = `goroutine 10 [chan receive (durable), synctest bubble 1]:
gopct.invalid/rt.(*execution).park(0x871001eeb08, 0x871001d60c0)
	/root/.cache/gopct/bin/runtimes/rt-7c7b7cb582528e23a2790004/sched.go:564 +0x45
example.com/nh.TestReaderLeft.func1.1()
	/tmp/nh/nh_test.go:74 +0xbc
gopct.invalid/rt.(*execution).runG(0x871001eeb08?, 0x871001d6180?, 0x87100131fd0?)
	/root/.cache/gopct/bin/runtimes/rt-7c7b7cb582528e23a2790004/spawn.go:31 +0x56`

func TestNativePlace(t *testing.T) {
	g := parseGoroutine(pipeReaderBlock)
	if !waitsOutsideGopct(g) || goroutineNumber(g) != 9 {
		t.Fatalf("reader: outside %v, number %d", waitsOutsideGopct(g), goroutineNumber(g))
	}
	const want = "in io.(*pipe).read (pipe.go:57) called at nh_test.go:74"
	if got := nativePlace(g, map[string]bool{"nh_test.go": true}); got != want {
		t.Errorf("place %q, want %q", got, want)
	}
	if got := nativePlace(g, map[string]bool{"other.go": true}); got != "" {
		t.Errorf("place without the test's file %q, want none", got)
	}
	if waitsOutsideGopct(parseGoroutine(parkedBlock)) {
		t.Error("a goroutine parked in gopct's runtime taken as handed off")
	}
}
