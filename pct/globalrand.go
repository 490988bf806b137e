package pct

import (
	"math/rand"
	randv2 "math/rand/v2"
	"sync/atomic"
)

// The top-level functions of math/rand and math/rand/v2 draw from a
// process-wide source seeded at random: a program whose behaviour depends on
// a draw (an error path taken when rand.Intn(10) > 7) would follow another
// path in a replay. The instrumenter rewrites rand.F(args) into
// Rand1().F(args) (math/rand) or Rand2().F(args) (math/rand/v2): every
// top-level function has a method of the same name and signature on Rand.
// Inside an execution the source is the execution's own, seeded from the
// schedule's seed and the execution index (randSeed), so a replay draws the
// same numbers in the same order (only the token holder runs, so the draws
// are ordered by the schedule); each draw is folded into the path's
// fingerprint. Outside an execution, and on goroutines gopct
// does not manage, the calls go to the global functions as before.

// randSalt separates the program's random streams from the strategy's,
// which is seeded from the same execution seed.
const randSalt = 0x9e3779b97f4a7c15

// rand.Seed is not rewritten: since Go 1.24 it does nothing (GODEBUG
// randseednop=1), and reseeding the execution's source with the fake clock
// (rand.Seed(time.Now().UnixNano())) would make every execution draw the
// same numbers.

// Rand1 is the source behind math/rand's top-level functions.
func Rand1() *rand.Rand {
	if e, _ := self(); e != nil {
		if e.rand1 == nil {
			e.rand1 = rand.New(drawSource1{e, rand.NewSource(int64(e.randSeed)).(rand.Source64)})
		}
		return e.rand1
	}
	return nativeRand1
}

// Rand2 is the source behind math/rand/v2's top-level functions.
func Rand2() *randv2.Rand {
	if e, _ := self(); e != nil {
		if e.rand2 == nil {
			e.rand2 = randv2.New(drawSource2{e, randv2.NewPCG(e.randSeed, randSalt)})
		}
		return e.rand2
	}
	return nativeRand2
}

// RandN is math/rand/v2's generic N: a value in [0, n).
func RandN[T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](n T) T {
	if n <= 0 {
		panic("invalid argument to N")
	}
	return T(Rand2().Uint64N(uint64(n)))
}

// nativeRand1 and nativeRand2 forward to the global sources (safe for
// concurrent use: the Rand values keep no state of their own but Read's
// buffer).
var (
	nativeRand1 = rand.New(globalSource1{})
	nativeRand2 = randv2.New(globalSource2{})
)

type globalSource1 struct{}

func (globalSource1) Int63() int64    { return rand.Int63() }
func (globalSource1) Uint64() uint64  { return rand.Uint64() }
func (globalSource1) Seed(seed int64) { rand.Seed(seed) }

type globalSource2 struct{}

func (globalSource2) Uint64() uint64 { return randv2.Uint64() }

// drawSource1 and drawSource2 fold every value drawn into the execution's
// path fingerprint, so that a replay drawing other numbers (another seed)
// is reported as diverging even where its path happens to agree.
type drawSource1 struct {
	e   *execution
	src rand.Source64
}

func (s drawSource1) Int63() int64 {
	v := s.src.Int63()
	s.e.foldDraw(uint64(v))
	return v
}

func (s drawSource1) Uint64() uint64 {
	v := s.src.Uint64()
	s.e.foldDraw(v)
	return v
}

func (s drawSource1) Seed(seed int64) { s.src.Seed(seed) }

type drawSource2 struct {
	e   *execution
	src randv2.Source
}

func (s drawSource2) Uint64() uint64 {
	v := s.src.Uint64()
	s.e.foldDraw(v)
	return v
}

func (e *execution) foldDraw(v uint64) {
	e.fp = (e.fp ^ v) * fpPrime
	e.drawFP = (e.drawFP ^ v) * fpPrime
}

// drawsFingerprint folds the draws' hash to 32 bits, never 0.
func (e *execution) drawsFingerprint() uint32 { return uint32(e.drawFP^e.drawFP>>32) | 1 }

// TimeSeed is the seed of a source made with a seed read from the clock
// (rand.NewSource(time.Now().UnixNano()); the instrumenter wraps such seed
// arguments). Inside an execution the clock is fake, but it starts at the
// real time the process began its first execution (epoch.go), which
// differs between two hunts: the seed is taken from the execution's seed
// and the step it is made at, the same in every hunt and replay. Outside one, in a gopct worker (a package-level
// source made while the package initialises), x is real time, different in
// every process: the seed is then taken from the hunt's seed and the number
// of such sources made so far, which package initialisation makes in the
// same order in every process, so that a replay's prior executions and the
// recorded one draw what the hunt's did. Under plain go test, x.
func TimeSeed[T ~int64 | ~uint64](x T) T {
	if e, _ := self(); e != nil {
		return T(execSeed(e.randSeed, -1-e.step) >> 1)
	}
	c, err := loadConfig()
	if err != nil || c == nil {
		return x
	}
	n := timeSeeds.Add(1)
	return T(execSeed(c.Seed^randSalt, -int(n)) >> 1) // >> 1: a non-negative int64
}

// timeSeeds counts the sources seeded by TimeSeed outside executions.
var timeSeeds atomic.Int64
