// Package mapchan: maps, channels and slices carrying pointers.
package mapchan

type Item struct{ n int }

func MC() {
	m := map[string]*Item{}   // alloc: m
	it := &Item{}             // alloc: it
	m["a"] = it               // touches: m
	p := m["a"]               // touches: m
	p.n = 1                   // touches: it
	ch := make(chan *Item, 1) // alloc: ch
	it2 := &Item{}            // alloc: it2
	ch <- it2                 // touches: ch
	q := <-ch                 // touches: ch
	q.n = 2                   // touches: it2
	for _, v := range m {     // touches: m
		v.n = 3 // touches: it
	}
	s := []*Item{it}   // alloc: sl
	s = append(s, it2) // alloc: ap va
	s[1].n = 4         // touches: sl, ap, it, it2
	delete(m, "a")     // touches: m
	select {
	case r := <-ch: // touches: ch
		r.n = 5 // touches: it2
	default:
	}
}
