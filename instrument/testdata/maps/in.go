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
