package pct

// The fast path of a memory access (issue 11: an active scheduling point
// without a switch cost ~100 ns, most of it building the Decision and
// asking the strategy, against ~1 ns for the access itself).
//
// A strategy whose choice is a function of the enabled set, the timers and
// its own state, and whose state changes only at known points (PCT's change
// points, PCTVB's j-th access of a variable), can say cheaply that the token
// holder continues at a memory access when its last decision said so and
// nothing it reads has changed since. The engine then skips the decision
// but numbers it (Decision.Seq), so that step, sequence number and path
// fingerprint, and with them recordings and replays, are those of the slow
// path. Replay, random and exhaustive strategies do not implement stayer and
// see every decision.

// stayer is a strategy that can answer for a memory access without a
// Decision. stays is called only when the previous decision of the
// execution let the token holder continue at a memory access, with the
// same enabled set, no timer pending, no yield and no livelock window; it
// does the bookkeeping Next would do at that access and returns true when
// Next would choose the holder again, or returns false, having changed
// nothing, to have Next called.
type stayer interface {
	stays(step int, a Access) bool
}

// stays says whether the token holder continues at memory access a without
// a decision (see stayer).
func (e *execution) stays(a Access) bool {
	if !e.stay || e.dirty || e.live != nil || !isMemory(a.Kind) {
		return false
	}
	s, ok := e.strategy.(stayer)
	return ok && s.stays(e.step, a)
}
