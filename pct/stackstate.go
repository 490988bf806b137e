package pct

import "strings"

// The state a goroutine dump shows for the test's goroutines, as go test's
// would show it.
//
// In the execution's bubble the runtime marks a durably blocked goroutine
// "(durable)" and every goroutine ", synctest bubble N": "goroutine 12
// [chan receive (durable), synctest bubble 2]:". Under go test the test
// runs in no bubble, and the same goroutine is "goroutine 12 [chan
// receive]:"; leak checkers print the state (goleak: "Goroutine 12 in state
// chan receive (durable), synctest bubble 2, with ...") and filter on it
// (goleak ignores testing's goroutines only in a state that starts with
// "chan receive"). And a goroutine gopct parked, on its wake channel, shows
// "chan receive" wherever it waits: at a scheduling point (natively it would
// be runnable), in a modelled Lock, WaitGroup.Wait or Cond.Wait (natively
// sync.Mutex.Lock, sync.WaitGroup.Wait, sync.Cond.Wait). Stack shows the
// state a native dump would.

// parkedStates maps the runtime's functions in which a goroutine waits in
// a model to the state go test's dump shows for the same wait: the first
// one found, from the innermost frame out, decides. The entry points the
// instrumenter calls come last in the chain, so a function of the runtime
// renamed away falls back to its entry point's state.
var parkedStates = map[string]string{
	"lockerOp":                "sync.Mutex.Lock", // Cond.Wait taking its lock back, a Locker's Lock
	"Lock":                    "sync.Mutex.Lock",
	"WLock":                   "sync.RWMutex.Lock",
	"RLock":                   "sync.RWMutex.RLock",
	"rlocker.Lock":            "sync.RWMutex.RLock",
	"LockerLock":              "sync.Mutex.Lock",
	"rlockOp":                 "sync.RWMutex.RLock", // an RLock through an interface
	"LockModelled":            "sync.Mutex.Lock",    // a Lock through an interface, as a statement
	"RLockModelled":           "sync.RWMutex.RLock",
	"WGWait":                  "sync.WaitGroup.Wait",
	"CondWait":                "sync.Cond.Wait",
	"OnceDo":                  "sync.Mutex.Lock", // Once.Do's slow path locks its mutex
	"runSubtest":              "chan receive",    // t.Run waits for the subtest's signal
	"parallelSubtest":         "chan receive",    // t.Parallel waits for its parent
	"(*execution).endFrame":   "chan receive",    // a test waits for its parallel subtests
	"(*execution).finishBody": "chan receive",
	"SynctestWait":            "synctest.Wait",
}

// nativeState is the state go test's dump would show for a goroutine of
// the execution with these frames (innermost first), or "" to keep the
// runtime's (with its synctest marks dropped by nativeHeader): a goroutine
// in a real channel operation, select or sleep, or running.
func nativeState(frames []frame) string {
	if len(frames) == 0 || frames[0].name() != rtPrefix+"(*execution).park" {
		return ""
	}
	disabled := false
	for _, f := range frames {
		if !f.rt() {
			break
		}
		name := strings.TrimPrefix(f.name(), rtPrefix)
		if name == "(*execution).disable" {
			disabled = true
			continue
		}
		if s, ok := parkedStates[name]; ok && disabled {
			return s
		}
	}
	if disabled {
		return "semacquire" // a model gopct does not name here: sync's generic wait
	}
	// Parked at a scheduling point, back from a real operation, or started
	// and not yet run: waiting for its turn, which natively is runnable.
	return "runnable"
}

// nativeHeader rewrites a dump's goroutine header as go test would print
// it: the state replaced by state (unless ""), its "(durable)" mark and the
// "synctest bubble N" annotation dropped. "goroutine 12 [chan receive
// (durable), 2 minutes, synctest bubble 3]:" becomes "goroutine 12 [chan
// receive, 2 minutes]:".
func nativeHeader(header, state string) string {
	i := strings.IndexByte(header, '[')
	j := strings.LastIndexByte(header, ']')
	if i < 0 || j < i {
		return header
	}
	inner, labels := header[i+1:j], ""
	if k := strings.Index(inner, " labels:{"); k >= 0 {
		inner, labels = inner[:k], inner[k:]
	}
	parts := strings.Split(inner, ", ")
	if state != "" {
		parts[0] = state
	} else {
		parts[0] = strings.TrimSuffix(parts[0], " (durable)")
	}
	out := parts[:1]
	for _, p := range parts[1:] {
		switch {
		case strings.HasPrefix(p, "synctest bubble "):
		case state == "runnable" && strings.HasSuffix(p, " minutes"):
			// a runnable goroutine has no waiting time
		default:
			out = append(out, p)
		}
	}
	return header[:i+1] + strings.Join(out, ", ") + labels + header[j:]
}
