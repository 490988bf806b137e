package campaign

import (
	"errors"
	"strings"
	"testing"
)

// TestCrashMessageSignalDump: a process that aborted itself (glog's
// TestRollover, sweep fresh34) is described by the dump's header and the
// program's last words, not by the dump's last register line, and its
// death is the program's, not the machine's.
func TestCrashMessageSignalDump(t *testing.T) {
	out := "F1223 01:23:46.500000   19241 glog.go:261] log: exiting because of error: file exists\n\n" +
		"goroutine 11 [running]:\ngithub.com/golang/glog.sinkf.func1()\n\t/x/glog.go:262 +0x40c\n\n" +
		"SIGABRT: abort\nPC=0x40b86e m=8 sigcode=18446744073709551610\n\ngoroutine 11 gp=0x1 m=8 [running]:\n" +
		"rax    0xca\nfs     0x0\ngs     0x0\nexit status 2\n"
	msg := crashMessage(out, errors.New("exit status 2"))
	want := "the test process died (exit status 2): SIGABRT: abort, after it printed: F1223 01:23:46.500000   19241 glog.go:261] log: exiting because of error: file exists"
	if msg != want {
		t.Errorf("crashMessage:\n got %q\nwant %q", msg, want)
	}
	if cause, program := deathCause(msg); !program || !strings.Contains(cause, "crashed itself (SIGABRT") {
		t.Errorf("deathCause(%q) = %q, %v; want the program's own crash", msg, cause, program)
	}
	if _, program := deathCause("the test process died (signal: killed); last output: ok"); program {
		t.Error("a kill from outside taken for the program's crash")
	}
}
