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
	// Every worker has os/signal's loop (pct's runtime starts it): listed
	// after the goroutine that crashed, it does not make the crash its.
	if _, ok := signalCrash(stateCrash + signalLoop); ok {
		t.Errorf("a crash with os/signal's loop listed taken for os/signal's")
	}
	if _, ok := signalCrash(loopCrash); !ok {
		t.Errorf("os/signal's loop's own crash not recognised")
	}
}

// os/signal's loop, idle, as a crash dump lists it.
const signalLoop = `
goroutine 5 [syscall]:
os/signal.signal_recv()
	/usr/local/go/src/runtime/sigqueue.go:152 +0x29
os/signal.loop()
	/usr/local/go/src/os/signal/signal_unix.go:23 +0x13
created by os/signal.Notify.func1.1 in goroutine 1
	/usr/local/go/src/os/signal/signal.go:152 +0x1f
`

// os/signal's loop delivering a signal to a channel made in a bubble
// (measured: go1.26, a synctest.Test that signals itself).
const loopCrash = `fatal error: send on synctest channel from outside bubble

goroutine 8 [running]:
os/signal.process({0x59ac20, 0x5a12d0})
	/usr/local/go/src/os/signal/signal.go:247 +0x1a5
os/signal.loop()
	/usr/local/go/src/os/signal/signal_unix.go:23 +0x13
created by os/signal.Notify.func1.1 in goroutine 1
	/usr/local/go/src/os/signal/signal.go:152 +0x1f
`
