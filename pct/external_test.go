package pct

import (
	"sync"
	"testing"
	"unsafe"
)

// An unmanaged goroutine outside the execution's bubble (one started at
// init) queues its operation but must not claim the decision: while it held
// e.deciding, the bubble's clock tick found the decision taken, and
// synctest reported a false deadlock (sweep_unmanaged_release under load).
func TestOutsideGoroutineDoesNotClaimTheDecision(t *testing.T) {
	e := &execution{bubble: "7", idle: true}
	current.Store(e)
	defer current.Store(nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wg.Go(func() { external(extOp{kind: extUnlock, obj: unsafe.Pointer(&mu)}) })
	wg.Wait()
	if e.deciding {
		t.Fatal("a goroutine outside the bubble claimed the decision")
	}
	if !e.outsider.Load() {
		t.Fatal("the execution still trusts that stuck goroutines stay stuck")
	}
	if len(e.ext) != 1 {
		t.Fatalf("queued %d operations, want 1", len(e.ext))
	}
}
