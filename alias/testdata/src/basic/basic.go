// Package basic: globals and heap allocations.
package basic

type T struct {
	f *int
	n int
}

var (
	g1 int
	g2 int
	gp *T
)

func sink(any) {}

func F() {
	g1 = 1         // touches: g1
	x := new(int)  // alloc: a1
	y := new(int)  // alloc: a2
	t1 := &T{f: x} // alloc: t1
	t2 := &T{f: y} // alloc: t2
	gp = t1        // touches: gp
	t1.n++         // touches: t1
	*t2.f = 3      // touches: t2, a2
	sink(t1.f)     // pointsto: a1
	sink(gp.f)     // pointsto: a1
	g2 = g1 + 1    // touches: g1, g2
}
