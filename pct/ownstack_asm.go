//go:build amd64 || arm64

package pct

// Goroutine stacks are private. Go never lets a goroutine reach another's
// stack (a stack moves when it grows, and only pointers inside it are
// adjusted), so an access to the running goroutine's own stack cannot race.
// Recording it did harm: when the goroutine ends, or its stack grows and
// the old one is freed, the stack's memory goes back to the heap at once,
// without a collection, and a later object there inherited the stack
// variable's history, a race with a goroutine that never saw the object
// (pierrec/lz4's TestWriter in the sweep of stop 33: races on a new
// Reader's fields against reads by another subtest's goroutine, varying
// from run to run, whose replays passed; the rerun that confirms races
// after a collection did not run, as no collection had completed).

// onOwnStack says whether addr lies in the calling goroutine's stack.
func onOwnStack(addr uintptr) bool {
	s := stackOfG()
	return addr >= s[0] && addr < s[1]
}
