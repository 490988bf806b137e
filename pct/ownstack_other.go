//go:build !amd64 && !arm64

package pct

// onOwnStack cannot read the stack bounds without the assembly getg: no
// address is taken for the goroutine's own stack (ownstack_asm.go).
func onOwnStack(addr uintptr) bool { return false }
