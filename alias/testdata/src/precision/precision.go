// Package precision: several variables of one type, each touched by its
// own sites. A type-based analysis merges them; points-to keeps them apart.
package precision

type Acc struct{ bal int }

var x, y, z Acc

func P() {
	x.bal++ // touches: x
	y.bal++ // touches: y
	p := &z
	p.bal++     // touches: z
	q := &Acc{} // alloc: q
	q.bal = 1   // touches: q
	r := &Acc{} // alloc: r
	deposit(r)
	deposit(q)
}

func deposit(a *Acc) { a.bal += 10 } // touches: q, r
