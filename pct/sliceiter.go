package pct

// Range loops over slices.
//
// `for i, v := range s` reads s's elements, one per iteration, and the
// instrumenter used to leave it as it was: the reads were no scheduling
// points and the race detector never saw them (a goroutine that ranges
// over a slice while another writes one of its elements went unreported,
// where a loop of s[i] reads did not). A range loop over a slice that
// binds the element is now a plain for loop over its indices whose body
// first reads the element through Load at the loop's read site (at the
// range expression), then runs the loop's body:
//
//	for s_, j_, i, v := SliceWalk(s); j_ < len(s_); j_++ { i, v = j_, Load(site, &s_[j_]); BODY }
//
// The slice is evaluated once, as range evaluates it. Declared in the for
// clause, i and v are per loop before go1.22 and per iteration from go1.22,
// as the range variables were; a continue goes on with the next element.
// The loop stays an index loop whose Load is inlined: an element at an
// inactive site costs 2.2 ns against 0.5 ns natively (BenchmarkSliceWalk,
// a sum over 1,000 ints: the gate's test and the bounds check, as an
// s[i] read), where a walker with a Next method, as for maps (mapiter.go),
// cost 35 ns. A range over an array or a pointer to an array stays as it
// is.

// SliceWalk begins a range loop over s: s itself, the first index, and the
// loop's index and element variables, zero.
func SliceWalk[S ~[]E, E any](s S) (_ S, j, i int, v E) { return s, 0, 0, v }
