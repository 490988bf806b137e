// Package bench measures how fast bug-finding methods find the bugs of a
// module of bug programs (examples/ or corpus/): each gopct strategy over
// several seeds, and stress testing as Go developers do it today (go test
// -count, natively and with -race). It reports executions and seconds to
// the first failure (medians), false reports on correct tests, and replay
// success, as a Markdown document that is regenerated, never hand-edited.
package bench
