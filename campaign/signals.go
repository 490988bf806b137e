package campaign

import (
	"strings"

	"github.com/gopct/gopct/pct"
)

// signalCrash recognises the death of a worker whose test received a
// signal inside its execution: os/signal's loop, outside the bubble, sent
// it to a channel made inside it ("send on synctest channel from outside
// bubble"; pct/signals.go), or the runtime's signal-mask goroutine used
// channels made inside one (runtime.ensureSigM: a test binary whose
// runtime did not start os/signal's machinery before the first execution).
// Running the test again in a fresh process (stateOutlives) cannot help,
// and the message of state kept from an earlier execution would mislead.
func signalCrash(out string) (string, bool) {
	i := strings.Index(out, "synctest channel from outside bubble")
	if i < 0 {
		return "", false
	}
	// The goroutine that crashed is the first of the dump that follows;
	// the others (os/signal's loop among them, which gopct's runtime starts
	// in every worker) are only listed.
	crashed := out[i:]
	if j := strings.Index(crashed, "\ngoroutine "); j >= 0 {
		crashed = crashed[j+1:]
		if k := strings.Index(crashed, "\n\n"); k >= 0 {
			crashed = crashed[:k]
		}
	}
	if !strings.Contains(crashed, "runtime.ensureSigM") && !strings.Contains(crashed, "os/signal.") {
		return "", false
	}
	return "the test received a signal inside its execution (os/signal)" + pct.SignalAdvice, true
}
