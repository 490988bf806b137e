package campaign

import (
	"strings"

	"github.com/gopct/gopct/pct"
)

// signalCrash recognises the death of a worker whose test called
// signal.Notify inside its execution (from code gopct does not instrument:
// the instrumented calls stop the execution first, pct/signals.go): the
// runtime's signal-mask goroutine, which the first Notify starts outside the
// bubble, used the channels that call made inside it ("select on synctest
// channel from outside bubble" in runtime.ensureSigM), or os/signal's loop
// sent a signal to a channel made inside it. Running the test again in a
// fresh process (stateOutlives) cannot help, and the message of state kept
// from an earlier execution would mislead.
func signalCrash(out string) (string, bool) {
	if !strings.Contains(out, "synctest channel from outside bubble") {
		return "", false
	}
	if !strings.Contains(out, "runtime.ensureSigM") && !strings.Contains(out, "os/signal.") {
		return "", false
	}
	return "the test calls os/signal (signal.Notify) inside its execution" + pct.SignalAdvice, true
}
