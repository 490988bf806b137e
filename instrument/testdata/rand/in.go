package rand

import (
	"math/rand"
	randv2 "math/rand/v2"
	"time"
)

// Draws calls the top-level functions of math/rand and math/rand/v2 (they
// go to the execution's sources), and a Rand of its own (left alone).
func Draws(xs []int) int {
	rand.Seed(7) // a no-op since Go 1.24: not rewritten
	n := rand.Intn(10) + int(rand.Int63()%3)
	if rand.Float64() > 0.5 {
		n++
	}
	rand.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	n += randv2.IntN(5) + len(rand.Perm(3))
	d := randv2.N(10 * time.Millisecond)
	d += randv2.N[time.Duration](time.Second)
	own := rand.New(rand.NewSource(time.Now().UnixNano()))
	return n + own.Intn(4) + int(d)
}
