package lib

import "sync"

// Box is shared through pointers.
type Box struct{ n int }

// Boxes is a package-level variable registered with Global.
var Boxes []*Box

// Profiled touches one variable of each kind the instrumenter registers,
// from two goroutines. A marker comment precedes each allocation and
// each escaping local; instrument's end-to-end test expects the profile to
// name the variable by the position right after the marker.
func Profiled(rounds int) int {
	var wg sync.WaitGroup
	box := /*@box*/ &Box{}
	arr := /*@make*/ make([]int, 2)
	lit := /*@lit*/ []int{1, 2}
	m := /*@map*/ map[string]int{}
	ptrs := /*@ptrs*/ []*Box{ /*@elided*/ {n: 1}}
	grown := /*@grown*/ append([]int(nil), 1, 2, 3)
	/*@count*/ count := 0
	var mu sync.Mutex
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			box.n++
			arr[0]++
			lit[1]++
			m["k"]++
			ptrs[0].n++
			grown[2]++
			count++
			global++
			Boxes = append(Boxes, box)
			rounds--
		}()
	}
	wg.Wait()
	return box.n + arr[0] + lit[1] + m["k"] + ptrs[0].n + grown[2] + count + rounds
}

// Param registers a parameter captured and assigned by a closure that may
// run in another goroutine (one called where it is written could not).
func Param( /*@param*/ p int) int {
	inc := func() { p++ }
	inc()
	return p
}
