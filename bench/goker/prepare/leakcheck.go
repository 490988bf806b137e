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
			t.Errorf("GOKER-LEAK %d goroutines blocked after the kernel returned; first:\n%s", len(leaks), leaks[0])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
`
