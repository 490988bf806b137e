// Package tbound computes how many thread-bounded executions cover every
// ordering of every t threads (Bindal, Bansal & Lal, ISSTA'13, §4). The
// runtime's thread bounding (package pct, -t) draws one random permutation
// P_1..P_{n+c} per execution; a bug that needs t of the n+c fragments (n
// goroutines, c preemptions) to run in one particular order is hit by an
// execution whose permutation orders those t fragments that way. Lemma 4.1
// bounds the number of permutations after which every ordering of every
// t-subset has appeared with probability at least 1-ε.
//
// The package reports, side by side:
//   - the lemma as stated, (t+1)(ln(mt) + ln(1/ε)), m = n+c;
//   - the bound the proof actually shows, t!·(t ln(mt) + ln(1/ε)) (the
//     proof writes P = t!·M and bounds M; the statement drops the t!);
//   - the proof's union bound solved exactly: the smallest P with
//     t!·C(m,t)·(1-1/t!)^P <= ε;
//   - the expected number of permutations until full coverage and the 99%
//     point when subsets are treated as independent, computed exactly per
//     subset (coupon collector over the t! orderings, by dynamic
//     programming);
//   - a simulation with the runtime's own generator (pct.Permute): per
//     trial, permutations are drawn until every ordering of every checked
//     subset has appeared; the 99% point is the empirical 0.99 quantile
//     over the trials. All t-subsets are checked when there are at most
//     Config.Sample of them; otherwise a fixed random sample of Sample
//     subsets is, and the figure is extrapolated to all C(m,t) subsets by
//     the geometric tail of the per-subset miss probability (see
//     Simulate).
//
// Invariants: every figure is a pure function of the Config (the
// simulation is deterministic for a seed); no figure depends on the clock.
package tbound
