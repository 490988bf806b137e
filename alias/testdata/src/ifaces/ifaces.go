// Package ifaces: dynamic dispatch through interfaces and type assertions.
package ifaces

type Putter interface{ Put(int) }

type A struct{ v int }

func (a *A) Put(x int) { a.v = x } // touches: a1, a2

type B struct{ v int }

func (b *B) Put(x int) { b.v = x } // touches: b1

func sink(any) {}

func use(p Putter) { p.Put(1) }

func I() {
	use(&A{})           // alloc: a1
	var p Putter = &A{} // alloc: a2
	p.Put(2)
	use(&B{}) // alloc: b1
	var e any = p
	if a, ok := e.(*A); ok {
		sink(a) // pointsto: a2
	}
	if q, ok := e.(Putter); ok {
		sink(q) // pointsto: a2
	}
}
