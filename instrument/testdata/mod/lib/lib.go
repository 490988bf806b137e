// Package lib exercises every rewrite rule at run time.
package lib

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	. "example.com/mod/util"
)

// Bank has accounts guarded by an RWMutex.
type Bank struct {
	mu   sync.RWMutex
	accs map[string]int
	ops  atomic.Int64
	log  []string
}

// NewBank returns an empty bank.
func NewBank() *Bank { return &Bank{accs: map[string]int{}} }

// Deposit adds n to name.
func (b *Bank) Deposit(name string, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.accs[name] += n
	b.accs[name]++
	b.accs[name]--
	b.ops.Add(1)
	b.log = append(b.log, name)
}

// Balance reads an account.
func (b *Bank) Balance(name string) (int, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	v, ok := b.accs[name]
	return v, ok
}

// Total sums every account.
func (b *Bank) Total() (t int) {
	rl := b.mu.RLocker()
	rl.Lock()
	defer rl.Unlock()
	for _, v := range b.accs {
		t += v
	}
	return t
}

var global int
var hits int64

// Stack is a generic stack guarded by a mutex.
type Stack[T any] struct {
	sync.Mutex
	items []T
}

// Push adds v.
func (s *Stack[T]) Push(v T) {
	s.Lock()
	s.items = append(s.items, v)
	s.Unlock()
}

// Pop removes the top element.
func (s *Stack[T]) Pop() (T, bool) {
	s.Lock()
	defer s.Unlock()
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Pipeline sends 1..n through two stages and returns the sum.
func Pipeline(n int) int {
	src := make(chan int)
	dst := make(chan int, n)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= n; i++ {
			src <- i
		}
		close(src)
	}()
	worker := func(in <-chan int, out chan<- int) {
		for v := range in {
			out <- v * 2
		}
	}
	wg.Add(1)
	go func(in <-chan int) {
		defer wg.Done()
		worker(in, dst)
	}(src)
	wg.Wait()
	close(dst)
	sum := 0
	for v := range dst {
		sum += v
	}
	return sum / 2
}

// Shared increments package and captured variables from goroutines.
func Shared(k int) int {
	var mu sync.Mutex
	count := 0
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Go(func() {
			mu.Lock()
			count++
			global += 1
			mu.Unlock()
			atomic.AddInt64(&hits, 1)
		})
	}
	wg.Wait()
	a, b := count, global
	a, b = b, a
	return a + b - int(atomic.LoadInt64(&hits))
}

// Timeout waits on a channel with a timeout, a context and a timer.
func Timeout(ch chan int) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	t := time.NewTimer(time.Hour)
	t.Reset(time.Hour)
	defer t.Stop()
	time.Sleep(time.Microsecond)
	select {
	case v, ok := <-ch:
		if !ok {
			return "closed", nil
		}
		return "value", errors.New(string(rune('0' + v)))
	case <-ctx.Done():
		return "ctx", ctx.Err()
	case <-t.C:
		return "timer", nil
	}
}

// OnceCond uses Once and Cond.
func OnceCond() int {
	var once sync.Once
	n := 0
	for i := 0; i < 3; i++ {
		once.Do(func() { n++ })
	}
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		mu.Lock()
		ready = true
		c.Broadcast()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	return n
}

// UseUtil goes through the dot-imported util package.
func UseUtil() int {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	return c.N
}

// Boom calls util.Crash through a variable.
func Boom() { Crash2(make(chan int)) }

// Crash2 is a var holding a function, called through a shared variable.
var Crash2 = func(ch chan int) { Crash(ch) }
