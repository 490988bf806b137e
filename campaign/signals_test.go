package campaign

import (
	"strings"
	"testing"
)

// The worker's output when the runtime's signal-mask goroutine, started by
// a signal.Notify inside an execution, selects on the channels that call
// made in the bubble (measured: go test of a synctest.Test that calls
// signal.Notify, go1.26; gopct's runtime now starts it before the first
// execution, pct/signals.go, but a crash of this kind is still os/signal's).
const ensureSigMCrash = `fatal error: select on synctest channel from outside bubble

goroutine 22 [running, locked to thread]:
runtime.fatal({0x592828, 0x2e})
	/usr/local/go/src/runtime/panic.go:1253 +0x74
runtime.selectgo(0x23ad7e20a7a8, 0x23ad7e20a790, 0x0?, 0x0, 0x0?, 0x1)
	/usr/local/go/src/runtime/select.go:181 +0x12f
runtime.ensureSigM.func1()
	/usr/local/go/src/runtime/signal_unix.go:1091 +0x188
runtime.goexit({})
	/usr/local/go/src/runtime/asm_amd64.s:1771 +0x1
`

// A goroutine of package state (a pool started by an earlier execution)
// that receives on a channel of a later execution's bubble.
const stateCrash = `fatal error: receive on synctest channel from outside bubble

goroutine 9 [running]:
example.com/pond.(*Pool).worker(0x1)
	/src/pond/pool.go:40 +0x1a
`

func TestSignalCrash(t *testing.T) {
	msg, ok := signalCrash(ensureSigMCrash)
	if !ok || !strings.Contains(msg, "os/signal") || strings.Contains(msg, "-deps") {
		t.Errorf("ensureSigM's crash: %v %q", ok, msg)
	}
	if _, ok := signalCrash(stateCrash); ok {
		t.Errorf("package state's crash taken for os/signal's")
	}
}
