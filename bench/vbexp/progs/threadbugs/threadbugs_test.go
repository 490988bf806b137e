// Package threadbugs plants bugs of known (c, v, t) in one program with
// many goroutines, after ISSTA'13 Table 4: c preemptions, v variables at
// them, t goroutines whose relative order matters. Every test starts its
// goroutines behind one barrier (so that the scheduler, not the order of
// the go statements, decides who runs first) next to four noise workers
// that update a hot variable under a lock.
package threadbugs

import (
	"slices"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	hot   int   // the noise workers' variable
	order []int // participants, in the order they took the lock
	x     int   // the variable of the (c, 1, t) bugs
)

const noise = 4

// start runs the participants and the noise workers behind one barrier and
// waits for all of them.
func start(participants ...func()) {
	hot, order, x = 0, nil, 0
	gate := make(chan struct{})
	var wg sync.WaitGroup
	spawn := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			f()
		}()
	}
	for range noise {
		spawn(func() {
			for range 16 {
				mu.Lock()
				hot++
				mu.Unlock()
			}
		})
	}
	for _, f := range participants {
		spawn(f)
	}
	close(gate)
	wg.Wait()
}

// arrive records participant id under the lock.
func arrive(id int) func() {
	return func() {
		mu.Lock()
		order = append(order, id)
		mu.Unlock()
	}
}

// orderBug is (0, 0, t): the test fails when the t participants take the
// lock in the reverse of their start order; no preemption is needed, only
// the right order of t goroutines (1 in t! of them).
func orderBug(t *testing.T, n int) {
	var ps []func()
	for id := range n {
		ps = append(ps, arrive(id))
	}
	start(ps...)
	want := make([]int, n)
	for i := range want {
		want[i] = n - 1 - i
	}
	if slices.Equal(order, want) {
		t.Fatalf("participants arrived in reverse order %v", order)
	}
}

func TestC0V0T2(t *testing.T) { orderBug(t, 2) }
func TestC0V0T3(t *testing.T) { orderBug(t, 3) }
func TestC0V0T4(t *testing.T) { orderBug(t, 4) }

// writer publishes x = 1 then x = 2; a reader must never see the
// intermediate 1 (the bug: it can, if the writer is preempted between).
func writer() { x = 1; x = 2 }

// Readers report what they saw on a channel (a synchronisation
// operation), so that x is the only variable the bugs involve.

// TestC1V1T2 is (1, 1, 2): the writer preempted after x = 1, the reader
// reads.
func TestC1V1T2(t *testing.T) {
	seen := make(chan int, 1)
	start(writer, func() { seen <- x })
	if <-seen == 1 {
		t.Fatal("reader saw the intermediate x = 1")
	}
}

// TestC1V1T3 is (1, 1, 3): the writer preempted after x = 1 while both
// readers read.
func TestC1V1T3(t *testing.T) {
	seen := make(chan int, 2)
	start(writer, func() { seen <- x }, func() { seen <- x })
	if <-seen == 1 && <-seen == 1 {
		t.Fatal("both readers saw the intermediate x = 1")
	}
}

// TestC2V1T2 is (2, 1, 2): the reader sees 1 then 2, so the writer is
// preempted after x = 1 and the reader between its two reads.
func TestC2V1T2(t *testing.T) {
	seen := make(chan int, 2)
	start(writer, func() { seen <- x; seen <- x })
	if <-seen == 1 && <-seen == 2 {
		t.Fatal("reader saw x go 1 then 2")
	}
}
