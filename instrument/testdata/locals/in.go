package locals

import (
	"iter"
	"sync"
)

type S struct{ n int }

func (s S) Value() int { return s.n }

// Params: p is captured read-only, q is assigned in a closure, r's address
// is taken, unused is neither; the named result is captured.
func Params(p int, q int, r int, unused int) (res int) {
	func() { res = p + q }()
	func() { q++ }()
	pr := &r
	_ = pr
	return
}

// Method receivers are parameters too.
func (s S) Method() func() int {
	return func() int { return s.Value() }
}

func Decls(ch chan int, seq iter.Seq[int]) {
	a, b := 1, 2 // both captured below
	var c, d int // c captured, d not
	var e = 3    // address taken
	_ = &e
	f := func() int { return a + b + c }
	_ = f
	a, g := 4, 5 // a is not new: only g is registered (captured)
	go func() { _ = g }()
	_ = d
	var mu sync.Mutex // implicit &mu
	mu.Lock()
	mu.Unlock()
	if x := a; x > 0 {
		func() { _ = x }()
	} else if y := x; y > 1 {
		func() { _ = y }()
	} else {
		_ = x
	}
	switch z := b; z {
	case 1:
		go func() { _ = z }()
	default:
	}
	var v any = a
	switch w := v.(type) {
	case int:
		go func() { _ = w }()
	case string:
		_ = w
	}
	for i := 0; i < 3; i++ {
		go func() { _ = i }()
	}
	for k, val := range []int{1} {
		go func() { _, _ = k, val }()
	}
	for r := range ch {
		go func() { _ = r }()
	}
	total := 0
	for it := range seq { // the body is a closure in SSA: total is captured
		total += it
	}
	select {
	case m, ok := <-ch:
		go func() { _, _ = m, ok }()
	default:
	}
	h := func(arg int) {
		go func() { _ = arg }()
	}
	h(total)
L:
	lab := 1
	func() { _ = lab }()
	if lab > 2 {
		goto L
	}
}

// Handler is a function literal at package level: its parameters are
// registered at its entry too.
var Handler = func(req int) func() int {
	return func() int { return req }
}

// Deferred sets its named result from a deferred closure.
func Deferred() (err error) {
	defer func() { err = nil }()
	for i := range 3 {
		go func() { _ = i }()
	}
	var v any
	switch x := v.(type) {
	case nil:
		func() { _ = x }()
	}
	return
}

// Generic registers a variable of a type parameter's type.
func Generic[T any](v T) func() T {
	return func() T { return v }
}

// Nested: a literal called in place does not share n, but the go statement
// inside it does; m is assigned in a literal called in place only.
func Nested() int {
	n, m := 0, 0
	func() {
		m++
		go func() { n++ }()
	}()
	return n + m
}

// LoopBody: the body assigns i after a goroutine captured it, so i is shared
// although the post statement's i++ does not count.
func LoopBody() {
	for i := 0; i < 3; i++ {
		go func() { _ = i }()
		i++
	}
}
