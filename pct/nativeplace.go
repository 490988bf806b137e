package pct

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Where a goroutine handed off waits, for a deadlock's or a leak's report.
//
// At the hand-off gopct knows only the goroutine's last scheduling point
// ("blocked inside code gopct does not instrument after x_test.go:12"),
// often its go statement; which call it waits in is on its stack, which
// only a dump of every goroutine shows, too costly at each hand-off. When
// the execution ends blocked, the dump is taken once and each goroutine
// handed off is matched with its stack: the goroutines of the bubble that
// wait outside gopct's runtime and run a managed body (runG, or the test
// function's runBody), in creation order, as the goroutines' ids are.

// placeNatives rewrites what each goroutine handed off waits for with
// the call it waits in, when the dump's goroutines match them one to one.
func (e *execution) placeNatives() {
	if len(e.natives) == 0 {
		return
	}
	var stacks []goroutine
	for _, block := range splitDump(fullDump()) {
		g := parseGoroutine(block)
		if bubbleOf(g.header) == e.bubble && waitsOutsideGopct(g) {
			stacks = append(stacks, g)
		}
	}
	if len(stacks) != len(e.natives) {
		return // other goroutines wait outside gopct too: no sure match
	}
	sort.Slice(stacks, func(i, j int) bool { return goroutineNumber(stacks[i]) < goroutineNumber(stacks[j]) })
	natives := append([]*G(nil), e.natives...)
	sort.Slice(natives, func(i, j int) bool { return natives[i].id < natives[j].id })
	files := siteFiles()
	for i, n := range natives {
		if where := nativePlace(stacks[i], files); where != "" {
			n.waitFor = "blocked inside code gopct does not instrument, " + where
		}
	}
}

// waitsOutsideGopct says whether g is a managed goroutine (its body runs
// under runG or runBody, or is the test function under testing's tRunner,
// which in a bubble runs nothing else) whose innermost frames are not
// gopct's runtime.
func waitsOutsideGopct(g goroutine) bool {
	managed, top := false, true
	for _, f := range g.frames {
		if top && !strings.HasPrefix(f.fn, "runtime.") && !strings.HasPrefix(f.fn, "internal/") {
			if f.rt() {
				return false // parked in gopct's runtime
			}
			top = false
		}
		switch f.name() {
		case rtPrefix + "(*execution).runG", rtPrefix + "(*execution).runBody", "testing.tRunner":
			managed = true
		}
	}
	return managed && !top
}

// goroutineNumber is the runtime's number of a dump's goroutine.
func goroutineNumber(g goroutine) int {
	f := strings.Fields(g.header) // "goroutine 9 [select (durable), ...]:"
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// nativePlace describes where g waits: the innermost function that is not
// the runtime's, and the innermost frame of a file gopct instrumented (the
// files of the sites) that leads there.
func nativePlace(g goroutine, instrumented map[string]bool) string {
	in, at := "", ""
	for _, f := range g.frames {
		if f.rt() {
			break
		}
		loc := filepath.Base(trimLoc(f.loc))
		if in == "" && !strings.HasPrefix(f.fn, "runtime.") && !strings.HasPrefix(f.fn, "internal/") {
			in = f.name() + " (" + loc + ")"
		}
		if file, _, _ := strings.Cut(loc, ":"); instrumented[file] {
			at = loc
			break
		}
	}
	if in == "" || at == "" {
		return ""
	}
	return "in " + in + " called at " + at
}

// siteFiles is the set of the base names of the files the sites are in.
func siteFiles() map[string]bool {
	files := map[string]bool{}
	for _, s := range siteTable {
		if file, _, ok := strings.Cut(s.Pos, ":"); ok {
			files[file] = true
		}
	}
	return files
}
