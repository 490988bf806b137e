package pct

// permutation returns a uniformly random permutation of 1..m: the
// thread-bounded priorities P_1..P_{n+c} of one execution (ISSTA'13 §4).
func permutation(rng *Rand, m int) []int {
	p := make([]int, m)
	Permute(rng, p)
	return p
}

// Permute fills p with a uniformly random permutation of 1..len(p)
// (Fisher-Yates over the identity), drawing len(p)-1 numbers from rng. It
// is the generator thread bounding uses at run time; package tbound
// exports it to its simulation so that the figures it prints are those of
// this very generator.
func Permute(rng *Rand, p []int) {
	for i := range p {
		p[i] = i + 1
	}
	for i := len(p) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}
