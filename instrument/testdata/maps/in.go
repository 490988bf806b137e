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
