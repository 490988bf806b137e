//go:build go1.21

// Package maps121 is in language version go1.21 (no range-over-func, range
// variables per loop): ranges over maps still iterate in a deterministic
// order.
package maps121

func Sum(m map[string]int) (int, []func() string) {
	s := 0
	var keep []func() string
	for k, v := range m {
		s += len(k) + v
		keep = append(keep, func() string { return k })
	}
	for _, v := range m {
		s += v
	}
	for k := range m {
		delete(m, k)
	}
	for range m {
		s++
	}
	var k string
	var vs [1]int
outer:
	for k, vs[0] = range m {
		if k == "" {
			continue outer
		}
		break
	}
	return s + vs[0], keep
}

// Loop: in go1.21 one i serves every iteration, so the post statement's i++
// writes the variable the goroutines read: i is shared.
func Loop() {
	for i := 0; i < 3; i++ {
		go func() { _ = i }()
	}
}

// Range: in go1.21 the range statement assigns its one c at every
// iteration, the write the goroutines' reads race with: c is shared, and
// the body starts with the write (GoBench's cockroach35501, moby22941).
func Range(cs []string) {
	for _, c := range cs {
		go func() { _ = c }()
	}
}
