package main

import (
	"os/exec"
)

func runOutput(name string, args ...string) string {
	out, _ := exec.Command(name, args...).Output()
	return string(out)
}

// leakCheckGo is the goleak-style check of the native baseline: after the
// kernel returns, goroutines it started (a frame of package goker) that are
// still blocked (not running, not sleeping) after a grace period are a leak.
const leakCheckGo = `package goker

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// grace is how long the check waits for the kernel's goroutines to end
// (GOKER_GRACE, default 1s): goleak retries for about as long.
func grace() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("GOKER_GRACE")); err == nil {
		return d
	}
	return time.Second
}

// goroutines returns every goroutine's stack text keyed by its header line's id.
func goroutines() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	all := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		fields := strings.Fields(g)
		if len(fields) >= 2 && fields[0] == "goroutine" {
			all[fields[1]] = g
		}
	}
	return all
}

func goroutineIDs() map[string]bool {
	ids := map[string]bool{}
	for id := range goroutines() {
		ids[id] = true
	}
	return ids
}

var blockedStates = []string{"[chan send", "[chan receive", "[select", "[sync.", "[semacquire", "[sync.Cond.Wait"}

// blockedLeaks returns the stacks of goroutines started since before that
// run kernel code and are blocked on synchronisation.
func blockedLeaks(before map[string]bool) []string {
	var leaks []string
	for id, g := range goroutines() {
		if before[id] || !strings.Contains(g, "goker.") {
			continue
		}
		header, _, _ := strings.Cut(g, "\n")
		for _, s := range blockedStates {
			if strings.Contains(header, s) {
				leaks = append(leaks, g)
				break
			}
		}
	}
	return leaks
}

// summarise returns one line per entry function and wait reason of the
// stacks, "GOKER-LEAKED fn [reason] xN", as Go's leak test names leaks:
// by the frame above "created by" and the header's wait reason.
func summarise(stacks []string) string {
	count := map[string]int{}
	for _, g := range stacks {
		lines := strings.Split(g, "\n")
		header := lines[0]
		reason := header[strings.Index(header, "[")+1 : strings.LastIndex(header, "]")]
		reason, _, _ = strings.Cut(reason, ",")
		entry := "?"
		for i, l := range lines {
			if strings.HasPrefix(l, "created by") && i >= 2 {
				entry = lines[i-2]
				if j := strings.LastIndex(entry, "("); j > 0 {
					entry = entry[:j]
				}
				break
			}
		}
		count[entry+" ["+reason+"]"]++
	}
	var b strings.Builder
	for k, n := range count {
		fmt.Fprintf(&b, "\nGOKER-LEAKED %s x%d", k, n)
	}
	return b.String()
}

// checkLeaks fails the test when goroutines the kernel started are still
// blocked after the grace period (polled every 10ms, as goleak retries).
func checkLeaks(t *testing.T, before map[string]bool) {
	deadline := time.Now().Add(grace())
	for {
		leaks := blockedLeaks(before)
		if len(leaks) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("GOKER-LEAK %d goroutines blocked after the kernel returned; first:\n%s%s", len(leaks), leaks[0], summarise(leaks))
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
`
