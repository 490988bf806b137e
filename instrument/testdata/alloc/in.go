package alloc

import (
	str "strings"
	"sync"
	"unsafe"
)

type T struct {
	x  int
	s  []int
	m  map[string]int
	mu sync.Mutex
}

type Bytes []byte

type Pair [2]int

// Table is allocated at package level: initializers are wrapped too.
var Table = map[string]*T{"a": {x: 1}}

const n = len([2][]int{{1}, {2}}) // constant: left alone

func Allocs(s string, xs []int) int {
	p := &T{x: 1, s: []int{1, 2}}           // &T{...} at '&', its slice field at '['
	q := new(T)                             // new(T)
	m := make(map[string]int, 4)            // make of a map
	c := make(chan int, 1)                  // make of a channel
	sl := make([]int, 0, n)                 // make of a slice
	sl = append(sl, 1, 2)                   // append may allocate
	lit := []int{3, 4}                      // slice literal
	ml := map[int]string{1: "a"}            // map literal
	b := []byte(s)                          // string to slice conversion
	var bs Bytes = append(Bytes(nil), s...) // appending a string: Alloc(append(...))
	var ifaces []any
	ifaces = append(ifaces, p, 1, nil) // elements converted to any
	sl = append(sl, lit...)            // spread
	sl = append(append(sl, 1), sl[0])  // nested
	ptrs := []*T{{x: 2}, &T{x: 3}}     // elided &T{...} written out
	nested := [][]int{{1}, {2, 3}}     // elided slice literals written out
	arr := [2]int{1, 2}                // array value: not an allocation
	st := T{x: 4}                      // struct value: not an allocation
	pa := &Pair{1, 2}                  // &array literal
	pp := &(T{x: 5})                   // parenthesized
	builders := []*str.Builder{{}}     // elided type from a renamed import
	anon := []*struct{ a int }{{a: 1}} // elided anonymous struct
	sel := []int{1, 2, 3}[1]           // indexing a slice literal
	k := map[string]int{"z": 26}["z"]  // indexing a map literal
	if len([]int{1}) > 0 {             // literal in an if header
	}
	for range []int{1, 2} { // and in a range header
	}
	go func(v []int) {}([]int{5}) // argument of a go statement
	_, _, _, _, _, _, _, _, _, _, _, _, _ = ifaces, p, q, m, c, lit, ml, b, bs, ptrs, nested, builders, anon
	return len(sl) + arr[0] + st.x + pa[0] + pp.x + sel + k
}

func Generic[S ~[]E, E any, M ~map[string]E](e E) (S, M) {
	s := make(S, 0)
	s = append(s, e)
	return s, M{"e": e}
}

func Elided() {
	type local struct{ v int }
	_ = []*local{{v: 1}}           // local type: printable at this position
	_ = map[string][]int{"a": {1}} // elided map value
	_ = [][]struct{}{{}}           // anonymous struct element
}

type Ts []*T

// Skipped: elided literals whose type cannot be written at their position.
func Skipped() {
	T := 1
	_ = Ts{{x: T}} // T is a variable here: &T{...} would not compile
	_ = Bufs{{}}   // bytes.Buffer: "bytes" is not imported by this file
}

// ElidedGeneric writes out elided literals of type-parameter types.
func ElidedGeneric[T any, S ~[]T](v T) []S {
	type box[U any] struct{ u U }
	_ = []*box[T]{{u: v}}
	return []S{{v}}
}

// Constant contexts keep their allocations unwrapped.
func Constant() uintptr {
	const size = unsafe.Sizeof(*new(int)) + unsafe.Sizeof(make([]int, 1))
	return size + unsafe.Sizeof(new(int))
}
