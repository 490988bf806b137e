// Package embed: embedded fields, method values, sync calls.
package embed

import "sync"

type Inner struct {
	mu sync.Mutex
	n  int
}

type Outer struct {
	Inner
	name string
}

func (in *Inner) Inc() { in.n++ } // touches: o1, o2

func EM() {
	o := &Outer{} // alloc: o1
	o.Inc()
	f := o.Inc // method value
	f()
	o.n = 2                // touches: o1
	s := make([]*Outer, 2) // alloc: s
	s[0] = o               // touches: s
	s[1].n = 3             // touches: s, o1
	o.mu.Lock()            // touches: o1
	o.mu.Unlock()          // touches: o1
	g := (*Inner).Inc      // method expression
	o2 := &Outer{}         // alloc: o2
	g(&o2.Inner)
}
