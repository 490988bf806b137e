package tbound

import "math"

// orderings is t!, the number of relative orders of t elements.
func orderings(t int) int {
	k := 1
	for i := 2; i <= t; i++ {
		k *= i
	}
	return k
}

// lnChoose is ln C(m, t).
func lnChoose(m, t int) float64 {
	a, _ := math.Lgamma(float64(m + 1))
	b, _ := math.Lgamma(float64(t + 1))
	c, _ := math.Lgamma(float64(m - t + 1))
	return a - b - c
}

// Choose is C(m, t) as a float (it overflows int64 for m = 600, t = 8).
func Choose(m, t int) float64 { return math.Round(math.Exp(lnChoose(m, t))) }

// LemmaBound is Lemma 4.1 as the paper states it: (t+1)(ln(mt) + ln(1/ε))
// permutations of m elements, rounded up.
func LemmaBound(m, t int, eps float64) int {
	return ceil(float64(t+1) * (math.Log(float64(m*t)) + math.Log(1/eps)))
}

// ProofBound is what the lemma's proof establishes before its last step:
// P = t!·M with M >= t ln(mt) + ln(1/ε) (the proof approximates
// (1-1/t!)^(t!M) by e^-M, t! by t^t and C(m,t) by m^t). The statement's
// "replacing M with P" loses the factor t!; the text's own example, 24 log n
// permutations for t = 3, keeps a factorial.
func ProofBound(m, t int, eps float64) int {
	return orderings(t) * ceil(float64(t)*math.Log(float64(m*t))+math.Log(1/eps))
}

// UnionBound solves the proof's inequality t!·C(m,t)·(1-1/t!)^P <= ε for
// the smallest P, without approximations: a union bound over every
// ordering of every t-subset.
func UnionBound(m, t int, eps float64) int {
	k := float64(orderings(t))
	if k == 1 {
		return 1
	}
	need := (math.Log(k) + lnChoose(m, t) - math.Log(eps)) / -math.Log1p(-1/k)
	return max(1, ceil(need))
}

// ceil rounds up, tolerating the float error of an exact integer result.
func ceil(x float64) int { return int(math.Ceil(x - 1e-9)) }

// subsetMiss returns u[P] for P = 0..maxP: the probability that P random
// permutations leave some ordering of one fixed t-subset unseen. Each
// permutation orders the subset uniformly at random, independently of the
// others, so this is the coupon collector's tail over t! coupons; it is
// computed by dynamic programming over the number of orderings seen (no
// alternating sums, so it is accurate far into the tail).
func subsetMiss(t, maxP int) []float64 {
	k := orderings(t)
	dist := make([]float64, k+1) // dist[s]: probability s orderings seen
	dist[0] = 1
	u := make([]float64, maxP+1)
	for p := 0; p <= maxP; p++ {
		miss := 0.0
		for s := 0; s < k; s++ {
			miss += dist[s]
		}
		u[p] = miss
		for s := k; s > 0; s-- { // one more permutation
			dist[s] = dist[s]*float64(s)/float64(k) + dist[s-1]*float64(k-s+1)/float64(k)
		}
		dist[0] = 0
	}
	return u
}

// Independent returns the expected number of permutations until every
// ordering of every t-subset of m elements has appeared, and the smallest
// P at which that has happened with probability >= 1-ε, both treating the
// C(m,t) subsets as independent (each misses with the exact per-subset
// probability). Subsets that share elements are not independent; the
// simulation measures how little that matters (docs/VBOUND.md).
func Independent(m, t int, eps float64) (mean float64, p99 int) {
	limit := 4*UnionBound(m, t, eps) + 4*orderings(t)
	u := subsetMiss(t, limit)
	n := Choose(m, t)
	p99 = -1
	for p, miss := range u {
		covered := 0.0 // probability all subsets are complete after p
		if miss < 1 {
			covered = math.Exp(n * math.Log1p(-miss))
		}
		mean += 1 - covered
		if p99 < 0 && covered >= 1-eps {
			p99 = p
		}
	}
	return mean, p99
}
