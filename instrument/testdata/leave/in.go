package leave

import (
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"unsafe"
)

var hits int

// Calls into code gopct does not instrument close the caller's tally
// batch once their arguments are evaluated: net/http's and io's may block
// while goroutines gopct does not manage run the test's code.
func Calls(srv *httptest.Server, r io.Reader, f func(int) int, xs []int) int {
	defer srv.Close()          // a standard-library method: Leaving
	g := func() { recover() }  // a function value may recover:
	defer g()                  // left as it is
	b, _ := io.ReadAll(r)      // the last argument is wrapped
	n := f(hits)               // a function value
	n += f(3)                  // a constant: the function is wrapped
	srv.Start()                // no argument: the function is wrapped
	_ = strings.ToUpper("x")   // pure: as it is
	_ = slices.Index(xs, hits) // pure generic: as it is
	_ = first(xs)              // this package: as it is
	_ = apply(xs, f)           // a function value argument: wrapped
	_ = apply(xs, double)      // an inferred generic function: the function is wrapped
	return n + len(b)
}

var apply = func(xs []int, f func(int) int) int { return f(xs[0]) }

func double[T int | float64](x T) T { return 2 * x }

func first[T any](xs []T) T { return xs[0] }

const raw = "desc"

// unsafe's functions are builtins, which are no values: as they are.
func Raw(p *[2]int64) ([]byte, unsafe.Pointer) {
	return unsafe.Slice(unsafe.StringData(raw), len(raw)), unsafe.Add(unsafe.Pointer(p), 8)
}

type pair[T any] struct{ a, b T }

// unsafe's functions are builtins, not calls into other code: the
// arguments of Offsetof, Sizeof and Alignof are not evaluated (Offsetof's
// must stay a selector, and a generic struct's offset is no constant);
// those of Add and Slice are, as any expression.
func Layout[T any](p *pair[T], xs []byte) uintptr {
	off := unsafe.Offsetof(pair[T]{}.b) + unsafe.Offsetof(p.b)
	off += unsafe.Sizeof(p.a) + unsafe.Alignof(p.b)
	_ = unsafe.Add(unsafe.Pointer(p), hits)
	_ = unsafe.Slice(&xs[0], hits)
	return off
}
