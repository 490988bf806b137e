// Package closures: captured variables and goroutines.
package closures

func G() int {
	counter := 0                        // alloc: c
	inc := func() { counter++ }         // alloc: inc; touches: inc, c
	done := make(chan bool)             // alloc: done ch
	go func() { inc(); done <- true }() // touches: inc, done, ch
	<-done                              // touches: done, ch
	local := 0
	local++                // touches: -
	return counter + local // touches: c
}

type state struct{ hits int }

func H() *state {
	s := &state{} // alloc: sv s
	run := func(f func()) { f() }
	run(func() { s.hits++ }) // touches: sv, s
	return s
}
