package maps

type M map[string]int

var global = map[string]int{}

func Maps(m M, k string, im map[any]int) int {
	m[k] = 1
	v := m[k]
	v2, ok := m["x"]
	m[k] += 2
	m[k]++
	global["g"] = v
	delete(m, k)
	one := 1
	im[one] = 2 // key type differs: XMapStore
	s := 0
	for key, val := range m {
		s += len(key) + val
	}
	clear(m)
	if ok {
		return v2
	}
	return s
}

type node struct{ next *node }

type pair struct {
	a, b int
	s    string
}

// Keys that hold an address keep their store order for MapWalk
// (MapStore); plain keys need none (MapStorePlain).
func KeyKinds(pm map[*node]bool, sm map[pair]int, nm map[struct{ n *node }]int, am map[[2]any]int) {
	pm[&node{}] = true
	sm[pair{s: "x"}] = 1
	nm[struct{ n *node }{}] = 2
	am[[2]any{}] = 3
}

func Generic[K comparable, V any](m map[K]V, k K, v V) {
	m[k] = v
}

type counts struct{ m map[string]int }

// Updates of a map index as the init or post statement of if, switch and
// for, where the map is a field (read through the runtime) or the key a
// call: rendered as an update of m[k] itself (a map index expression).
func UpdateInits(c *counts, k string, f func() string) int {
	if c.m[k]--; c.m[k] <= 0 {
		delete(c.m, k)
	}
	switch c.m[k]++; c.m[k] {
	case 1:
		return 1
	}
	for i := 0; i < 3; c.m[k]++ {
		i++
	}
	if c.m[k] += 2; c.m[k] > 3 {
		return 3
	}
	if c.m[f()]++; len(c.m) > 3 {
		return 4
	}
	return 0
}
