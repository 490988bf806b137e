package vbound

import (
	"fmt"
	"testing"

	"github.com/gopct/gopct/pct"
)

func TestRankSharedFirstThenCorner(t *testing.T) {
	obs := []pct.Observation{
		{Var: "p.hot", Goroutines: 2, Accesses: 400},
		{Var: "p.hot", Site: "a.go:1:1", Accesses: 800},
		{Var: "p.cold", Goroutines: 2, Accesses: 4},
		{Var: "p.cold", Site: "a.go:2:1", Accesses: 8},
		{Var: "p.cold", Site: "a.go:3:1", Accesses: 8},
		{Var: "p.local", Goroutines: 1, Accesses: 1},
		{Var: "p.local", Site: "a.go:4:1", Accesses: 1},
		{Var: "p.unsited", Goroutines: 2, Accesses: 3},
	}
	ids := map[string][]int{"a.go:1:1": {0, 1}, "a.go:2:1": {2}, "a.go:3:1": {3}, "a.go:4:1": {4}}
	got := fmt.Sprint(Rank(obs, ids))
	want := "[{p.cold 4 2 true [2 3]} {p.hot 400 2 true [0 1]} {p.local 1 1 false [4]}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Two sites at one position (a load of s.m and the write of the map it
// holds, `s.m[k] = v`): an observation naming its site gives its variable
// that site alone; one without an id (an older runtime's) every site at
// the position; an id that is not a memory site at the position, none.
func TestRankKeepsTheObservedSite(t *testing.T) {
	obs := []pct.Observation{
		{Var: "p.set", Goroutines: 2, Accesses: 10},
		{Var: "p.set", Site: "a.go:1:1", ID: 1, Accesses: 10},
		{Var: "p.m", Goroutines: 2, Accesses: 10},
		{Var: "p.m", Site: "a.go:1:1", ID: 2, Accesses: 10},
		{Var: "p.old", Goroutines: 2, Accesses: 5},
		{Var: "p.old", Site: "a.go:1:1", Accesses: 5},
		{Var: "p.stray", Goroutines: 2, Accesses: 5},
		{Var: "p.stray", Site: "a.go:1:1", ID: 9, Accesses: 5},
	}
	ids := map[string][]int{"a.go:1:1": {0, 1}}
	got := fmt.Sprint(Rank(obs, ids))
	want := "[{p.old 5 2 true [0 1]} {p.m 10 2 true [1]} {p.set 10 2 true [0]}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestSubsetsExact(t *testing.T) {
	var got []string
	Subsets(4, 2, func(s []int) bool { got = append(got, fmt.Sprint(s)); return true })
	if fmt.Sprint(got) != "[[0 1] [0 2] [0 3] [1 2] [1 3] [2 3]]" {
		t.Errorf("got %v", got)
	}
	n := 0
	Subsets(5, 3, func([]int) bool { n++; return n < 4 })
	if n != 4 {
		t.Errorf("stop after 4: got %d", n)
	}
	Subsets(3, 0, func(s []int) bool { n = len(s); return true })
	if n != 0 {
		t.Errorf("v=0: %d", n)
	}
}
