// Package overhead holds correct, CPU-heavy programs for gopct's overhead
// table (the ISSTA'13 paper's Table 2, issue 11) and its long-execution
// tests (issue 14): each has a Test, run under gopct, and a Benchmark of
// the same work, the native baseline. bench/scripts/overhead.sh runs both.
package overhead

import (
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
)

// ---- parallel merge sort: 50,000 ints, 4 goroutines ----

const sortN = 50_000

func mergeSort(xs, tmp []int, depth int) {
	if len(xs) < 2 {
		return
	}
	mid := len(xs) / 2
	if depth > 0 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			mergeSort(xs[:mid], tmp[:mid], depth-1)
		}()
		mergeSort(xs[mid:], tmp[mid:], depth-1)
		wg.Wait()
	} else {
		mergeSort(xs[:mid], tmp[:mid], 0)
		mergeSort(xs[mid:], tmp[mid:], 0)
	}
	i, j, k := 0, mid, 0
	for i < mid && j < len(xs) {
		if xs[i] <= xs[j] {
			tmp[k] = xs[i]
			i++
		} else {
			tmp[k] = xs[j]
			j++
		}
		k++
	}
	k += copy(tmp[k:], xs[i:mid])
	copy(tmp[k:], xs[j:])
	copy(xs, tmp[:len(xs)])
}

func sortWork(t testing.TB) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]int, sortN)
	for i := range xs {
		xs[i] = r.IntN(1 << 30)
	}
	mergeSort(xs, make([]int, sortN), 2) // 4 goroutines at the leaves
	if !sort.IntsAreSorted(xs) {
		t.Fatal("not sorted")
	}
}

func TestMergeSort(t *testing.T) { sortWork(t) }
func BenchmarkMergeSort(b *testing.B) {
	for b.Loop() {
		sortWork(b)
	}
}

// ---- sharded hash set: 10^6 operations, 4 goroutines ----

type shard struct {
	mu sync.Mutex
	m  map[int]struct{}
}

type hashSet struct{ shards [16]shard }

func (s *hashSet) add(v int) {
	sh := &s.shards[v%16]
	sh.mu.Lock()
	sh.m[v] = struct{}{}
	sh.mu.Unlock()
}

func (s *hashSet) has(v int) bool {
	sh := &s.shards[v%16]
	sh.mu.Lock()
	_, ok := sh.m[v]
	sh.mu.Unlock()
	return ok
}

const setOps = 1_000_000

func setWork(t testing.TB) {
	s := &hashSet{}
	for i := range s.shards {
		s.shards[i].m = map[int]struct{}{}
	}
	var wg sync.WaitGroup
	var found atomic.Int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range setOps / 4 / 2 {
				v := (i*4 + w) % 50_000
				s.add(v)
				if s.has(v) {
					found.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if found.Load() != setOps/2 {
		t.Fatalf("found %d", found.Load())
	}
}

func TestHashSet(t *testing.T) { setWork(t) }
func BenchmarkHashSet(b *testing.B) {
	for b.Loop() {
		setWork(b)
	}
}

// ---- Monte Carlo: pi from 400,000 points, shared accumulators ----

const mcPoints = 400_000

func mcWork(t testing.TB) {
	var mu sync.Mutex
	inside, total := 0, 0
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			in := 0
			for range mcPoints / 4 {
				x, y := r.Float64(), r.Float64()
				if x*x+y*y <= 1 {
					in++
				}
			}
			mu.Lock()
			inside += in
			total += mcPoints / 4
			mu.Unlock()
		}()
	}
	wg.Wait()
	if pi := 4 * float64(inside) / float64(total); pi < 3.1 || pi > 3.2 {
		t.Fatalf("pi = %v", pi)
	}
}

func TestMonteCarlo(t *testing.T) { mcWork(t) }
func BenchmarkMonteCarlo(b *testing.B) {
	for b.Loop() {
		mcWork(b)
	}
}
