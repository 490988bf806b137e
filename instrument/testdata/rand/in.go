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

// pick and jitter are top-level functions used as values, taken while the
// package initialises: each call draws from the execution's source.
var (
	pick   = rand.Intn
	jitter = randv2.N[time.Duration]
	floats = []func() float64{rand.Float64, randv2.Float64}
)

// global is a source seeded from the real clock at init: the seed becomes
// the hunt's (TimeSeed); a constant seed is left alone.
var (
	global = rand.New(rand.NewSource(time.Now().UnixNano()))
	pcg    = randv2.New(randv2.NewPCG(uint64(time.Now().UnixNano()), 7))
	fixed  = rand.New(rand.NewSource(42))
)

func Values(xs []int) int {
	shuffle := rand.Shuffle
	shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	read := randv2.Uint64
	return pick(3) + int(jitter(time.Second)) + int(floats[0]()) + global.Intn(2) + pcg.IntN(2) + fixed.Intn(2) + int(read()%2)
}
