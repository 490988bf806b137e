package memory

import (
	"io"
	"os"
)

var G int
var R io.Reader

type P struct {
	x  int
	in Inner
	pp *P
	s  []int
	a  [3]int
}

type Inner struct{ y int }

func Mem(p *P, s []int, arr [3]int) int {
	G = 1
	G++
	G += p.x
	p.x = G
	p.in.y = 2
	p.pp.x--
	s[0] = s[1]
	arr[0] = 1 // local array: not shared
	local := 3
	local++
	q := &local
	*q = 4
	captured := 0
	func() { captured++ }()
	readonly := 5
	func() { _ = readonly }()
	R = os.Stdin
	G, local = local, G
	s[G], p.x = p.x, s[G]
	var addr = &p.a[G]
	_ = addr
	for i := 0; i < G; i++ {
	}
	const k = len(arr)
	sl := p.a[:]
	_ = sl
	return local + captured + len(s) + k + G
}

func Generic[T any](p *T, v T) T {
	*p = v
	return *p
}

type strErr string

func (e strErr) Error() string { return string(e) }

const errGone strErr = "gone"

var Err error

// A typed constant of another type than its destination's keeps its type:
// Store would infer T twice (error and strErr), so it goes through XStore.
func SetErr() {
	Err = errGone
	Err = nil
}

// The builtin copy is a write at the call (pct/copy.go): from a slice, from
// a string, of a named slice type and of a type parameter's; a copy whose
// source may be a string or a slice stays as it is.
type Words []int

func Copies[S ~[]byte, B ~string | ~[]byte](dst Words, src []int, b []byte, s string, ts S, tb B) int {
	n := copy(dst, src)
	n += copy(b, s)
	copy(ts, "x")
	copy(b, tb)
	return n
}

// A range loop that binds a slice's element reads it through Load in an
// index loop (pct/sliceiter.go); one that binds the index alone, or ranges
// over an array, stays as it is.
func Ranges[S ~[]string](xs []int, ws Words, ss S, arr [2]int) (n int) {
	for _, x := range xs {
		n += x
	}
	for i, w := range ws {
		n += i * w
	}
	var s string
	for _, s = range ss {
	}
	for i := range xs {
		n += i
	}
	for _, a := range arr {
		n += a
	}
	return n + len(s)
}
