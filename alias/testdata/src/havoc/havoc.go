// Package havoc: what comes back from code the analysis summarises (here
// reflect calling a function it was given) keeps its type: a map or channel
// parameter receives only the maps and channels of its own type.
package havoc

import "reflect"

type A struct{ n int }
type B struct{ n int }

func useMap(m map[string]*A) {
	m["z"].n = 1 // touches: ma, a
}

func useChan(c chan *A) {
	(<-c).n = 2 // touches: ca, a
}

func Reflect() {
	ma := map[string]*A{}                          // alloc: ma
	mb := map[int]*B{}                             // alloc: mb
	ca := make(chan *A, 1)                         // alloc: ca
	cb := make(chan *B, 1)                         // alloc: cb
	a := &A{}                                      // alloc: a
	b := &B{}                                      // alloc: b
	ma["x"] = a                                    // touches: ma
	mb[1] = b                                      // touches: mb
	ca <- a                                        // touches: ca
	cb <- b                                        // touches: cb
	args := []any{ma, mb, ca, cb, useMap, useChan} // alloc: args
	for _, x := range args {
		reflect.ValueOf(x).Kind()
	}
}
