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

// onHolderStack knows the holder by its stack bounds, read live: it still
// knows it after its stack has moved to grow, and never takes another
// goroutine for it.
func TestOnHolderStack(t *testing.T) {
	defer func() { tallyStack = &noStack }()
	var mark byte
	if onHolderStack(uintptr(unsafe.Pointer(&mark))) {
		t.Fatal("no holder yet, and the caller is on its stack")
	}
	tallyStack = stackOfG()
	if !onHolderStack(uintptr(unsafe.Pointer(&mark))) {
		t.Fatal("the holder is not on its own stack")
	}
	lo := tallyStack[0]
	if !deepOnHolderStack(200) {
		t.Fatal("the holder is not on its stack after it grew")
	}
	if tallyStack[0] == lo {
		t.Fatal("the stack did not move: the test of the live bounds proves nothing")
	}
	other := make(chan bool)
	go func() {
		var theirs byte
		other <- onHolderStack(uintptr(unsafe.Pointer(&theirs)))
	}()
	if <-other {
		t.Error("another goroutine is on the holder's stack")
	}
}

// deepOnHolderStack asks onHolderStack from n frames of 1 KiB down, deep
// enough that the goroutine's stack has to grow and move.
func deepOnHolderStack(n int) bool {
	var pad [1024]byte
	pad[n%len(pad)] = byte(n)
	if n == 0 {
		return onHolderStack(uintptr(unsafe.Pointer(&pad[0])))
	}
	return deepOnHolderStack(n-1) && pad[n%len(pad)] == byte(n)
}
