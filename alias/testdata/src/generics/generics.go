// Package generics: instantiated generic functions and types.
package generics

type Box[T any] struct{ v T }

func (b *Box[T]) Set(v T) { b.v = v } // touches: nb

func NewBox[T any]() *Box[T] { return &Box[T]{} } // alloc: nb

type Pair[K comparable, V any] struct {
	m map[K]V
}

func NewPair[K comparable, V any]() *Pair[K, V] {
	return &Pair[K, V]{m: make(map[K]V)} // alloc: np pm
}

func (p *Pair[K, V]) Put(k K, v V) { p.m[k] = v } // touches: np, pm

func sink(any) {}

func Gen() {
	bi := NewBox[int]()
	bs := NewBox[*int]()
	bi.Set(1)
	x := new(int) // alloc: x
	bs.Set(x)
	sink(bs.v) // pointsto: x
	p := NewPair[string, *int]()
	p.Put("a", x)
}
