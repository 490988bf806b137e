//go:build amd64 || arm64

package pct

import (
	"testing"
	"unsafe"
)

var ownStackSink *[4]int

// onOwnStack tells the caller's stack from the heap and from another
// goroutine's stack.
func TestOnOwnStack(t *testing.T) {
	var local [4]int
	if !onOwnStack(uintptr(unsafe.Pointer(&local[1]))) {
		t.Error("a local array is not on the goroutine's own stack")
	}
	heap := new([4]int)
	ownStackSink = heap // escapes: on the heap
	if onOwnStack(uintptr(unsafe.Pointer(&heap[1]))) {
		t.Error("a heap array is on the goroutine's own stack")
	}
	other := make(chan uintptr)
	done := make(chan bool)
	go func() {
		var theirs [4]int
		other <- uintptr(unsafe.Pointer(&theirs[1]))
		<-done
		_ = theirs
	}()
	if onOwnStack(<-other) {
		t.Error("another goroutine's local is on this goroutine's stack")
	}
	close(done)
}
