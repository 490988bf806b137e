// Package por holds the programs of gopct's partial-order-reduction
// measurement (bench/scripts/por_table.sh): the terminal executions per
// context bound with and without happens-before pruning, in the shape of
// Table 1 of Musuvathi & Qadeer, "Partial-order reduction for
// context-bounded state exploration". Each test is correct: the search
// must explore every schedule up to the bound and find nothing.
package por

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Deque is a work-stealing queue in the style of Chase & Lev: the owner
// pushes and pops at the bottom, thieves steal at the top with a CAS. The
// buffer is fixed (no growth) to keep the kernel small.
type Deque struct {
	top, bottom atomic.Int64
	buf         [8]atomic.Int64
}

func (d *Deque) Push(v int64) {
	b := d.bottom.Load()
	d.buf[b%8].Store(v)
	d.bottom.Store(b + 1)
}

// Pop takes the newest item; ok is false when the deque is empty.
func (d *Deque) Pop() (int64, bool) {
	b := d.bottom.Load() - 1
	d.bottom.Store(b)
	t := d.top.Load()
	if t > b {
		d.bottom.Store(t)
		return 0, false
	}
	v := d.buf[b%8].Load()
	if t == b {
		// The last item: race the thieves for it.
		ok := d.top.CompareAndSwap(t, t+1)
		d.bottom.Store(t + 1)
		return v, ok
	}
	return v, true
}

// Steal takes the oldest item.
func (d *Deque) Steal() (int64, bool) {
	t := d.top.Load()
	b := d.bottom.Load()
	if t >= b {
		return 0, false
	}
	v := d.buf[t%8].Load()
	if !d.top.CompareAndSwap(t, t+1) {
		return 0, false
	}
	return v, true
}

func TestWorkStealing(t *testing.T) {
	var d Deque
	taken := make([]atomic.Int32, 4)
	for i := range 3 {
		d.Push(int64(i))
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the thief
		defer wg.Done()
		if v, ok := d.Steal(); ok {
			taken[v].Add(1)
		}
	}()
	for range 3 { // the owner
		if v, ok := d.Pop(); ok {
			taken[v].Add(1)
		}
	}
	wg.Wait()
	for i := range 3 {
		if n := taken[i].Load(); n > 1 {
			t.Fatalf("item %d taken %d times", i, n)
		}
	}
}

// TestLockedCounters: three goroutines increment two counters under two
// mutexes: most interleavings commute.
func TestLockedCounters(t *testing.T) {
	var mu [2]sync.Mutex
	var n [2]int
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2 {
				k := (g + i) % 2
				mu[k].Lock()
				n[k]++
				mu[k].Unlock()
			}
		}()
	}
	wg.Wait()
	if n[0]+n[1] != 6 {
		t.Fatalf("n = %v", n)
	}
}

// TestPipeline: a producer, a doubler and a consumer joined by buffered
// channels.
func TestPipeline(t *testing.T) {
	in, out := make(chan int, 2), make(chan int, 2)
	go func() {
		for i := range 3 {
			in <- i
		}
		close(in)
	}()
	go func() {
		for v := range in {
			out <- 2 * v
		}
		close(out)
	}()
	sum := 0
	for v := range out {
		sum += v
	}
	if sum != 6 {
		t.Fatalf("sum = %d", sum)
	}
}
