package pct

import (
	"io/fs"
	"os"
	"sort"
	"time"
)

// Kernel timestamps on the execution's clock.
//
// An execution's clock starts at the process's epoch (epoch.go) and moves
// only when gopct lets time pass, while the kernel stamps files with the
// real time. In a process that has run executions for more than a second,
// a file the test has just written was modified "in the future": gofrs/flock
// v0.13.2's TestFlock_Stat checks that a new lock file's ModTime is within
// a second of time.Now(), and failed at execution #1127 (a FALSE report,
// sweep of stop 34; no real run can fail it).
//
// The execution notes where its clock stood in real time (clockMarks): at
// its start, and each time it lets time pass (clockTick). Between two marks
// the clock stands still, so a real instant r maps to the fake time of the
// last mark before it: what time.Now() read when the kernel stamped r.
// Instants before the execution map back from its start as far as they lie
// before it in real time (files made by init or by earlier executions), and
// instants after the last reading forward from it. FileModTime, which the
// instrumenter puts in place of (fs.FileInfo).ModTime, maps the times of
// files the kernel stamped (their Sys is a *syscall.Stat_t; an in-memory
// file system's FileInfo keeps its own times); Chtimes maps the other way.
// Where the real clock is not read (realNow returns 0: not Linux), nothing
// is mapped. The kernel stamps files from a clock that moves once a tick
// (up to 3-4 ms behind the real time here): a file written within a tick
// after the execution's clock jumped may count as written before the jump.

// clockMark is an instant of an execution as the kernel's clock and as the
// execution's clock read it (Unix nanoseconds).
type clockMark struct{ real, fake int64 }

// markClock notes where the execution's clock stands in real time. Called
// by whoever moves the clock: the start of the test function, clockTick.
func (e *execution) markClock() {
	if r := int64(realNow()); r != 0 {
		e.clockMarks = append(e.clockMarks, clockMark{r, now().UnixNano()})
	}
}

// fakeOf maps the kernel's instant r to the execution's clock.
func (e *execution) fakeOf(r int64) int64 { return e.mapTime(r, realPart, fakePart) }

// realOf maps the execution's instant f to the kernel's clock: the real
// time at which the execution's clock reached f.
func (e *execution) realOf(f int64) int64 { return e.mapTime(f, fakePart, realPart) }

func realPart(m clockMark) int64 { return m.real }
func fakePart(m clockMark) int64 { return m.fake }

// mapTime maps x, an instant on the clock from reads of a mark, to the
// clock to reads: from the present onwards, and before the first mark, at
// the same pace; between marks, to the last mark before x.
func (e *execution) mapTime(x int64, from, to func(clockMark) int64) int64 {
	cur := clockMark{int64(realNow()), now().UnixNano()}
	if x >= from(cur) {
		return to(cur) + (x - from(cur))
	}
	marks := e.clockMarks
	i := sort.Search(len(marks), func(i int) bool { return from(marks[i]) > x })
	if i == 0 {
		return to(marks[0]) - (from(marks[0]) - x)
	}
	return to(marks[i-1])
}

// mapsFileTimes returns the caller's execution when it holds the token and
// its clock has marks to map times with, or nil.
func mapsFileTimes() *execution {
	if e := holding(); e != nil && len(e.clockMarks) > 0 {
		return e
	}
	return nil
}

// FileModTime is fi.ModTime(), on the execution's clock when the kernel
// stamped it.
func FileModTime(site int, fi fs.FileInfo) time.Time {
	t := fi.ModTime()
	e := mapsFileTimes()
	if e == nil || t.IsZero() || !kernelStat(fi) {
		return t
	}
	return time.Unix(0, e.fakeOf(t.UnixNano())).In(t.Location())
}

// Chtimes is os.Chtimes(name, atime, mtime), the times read on the
// execution's clock and given to the kernel on its own (a zero time leaves
// the file's time as it is, as in os.Chtimes).
func Chtimes(site int, name string, atime, mtime time.Time) error {
	if e := mapsFileTimes(); e != nil {
		atime, mtime = e.kernelTime(atime), e.kernelTime(mtime)
	}
	return os.Chtimes(name, atime, mtime)
}

func (e *execution) kernelTime(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.Unix(0, e.realOf(t.UnixNano())).In(t.Location())
}
