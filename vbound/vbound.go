// Package vbound chooses the variables a variable-bounded campaign tracks
// (Bindal, Bansal & Lal, ISSTA'13, §2-3). From profiling runs it learns,
// for each variable of Q, how often a run accesses it (k_q), how many
// goroutines touch it, and which sites access it; it ranks the variables
// and enumerates the v-subsets a PCTVB campaign tries, in increasing v.
//
// Ranking: shared variables (touched by two goroutines or more) first,
// since only they can take part in a concurrency bug; among them the
// rarely accessed ones first. §3 shows why: PCT spreads its change points
// over all accesses, so a bug on a "corner" variable with few accesses is
// found with probability proportional to its share of the accesses, while
// PCTVB gives every tracked variable the same chance. Trying corner
// variables early is where variable bounding pays.
//
// Invariants: the ranking and the enumeration are deterministic (ties are
// broken by name), so a campaign's subsets and their order depend only on
// the profile.
package vbound

import (
	"sort"

	"github.com/gopct/gopct/pct"
)

// Variable is a variable of Q as profiling saw it.
type Variable struct {
	Name       string `json:"name"`
	K          int    `json:"k"`          // accesses per run (k_q)
	Goroutines int    `json:"goroutines"` // goroutines that touched it
	Shared     bool   `json:"shared"`     // touched by two goroutines or more
	Sites      []int  `json:"sites"`      // ids of the memory sites that accessed it
}

// Rank turns profiling observations into ranked variables. siteIDs maps a
// site position ("file:line:col") to the ids of the memory-access sites at
// that position in the binary. An observation that names its site (ID)
// gives the variable that site alone, when it is one of them; one that
// does not gives every site at the position.
func Rank(obs []pct.Observation, siteIDs map[string][]int) []Variable {
	byName := map[string]*Variable{}
	get := func(name string) *Variable {
		if v, ok := byName[name]; ok {
			return v
		}
		v := &Variable{Name: name}
		byName[name] = v
		return v
	}
	for _, o := range obs {
		v := get(o.Var)
		if o.Site == "" {
			v.K, v.Goroutines = o.Accesses, o.Goroutines
			continue
		}
		v.Sites = append(v.Sites, observedSites(o, siteIDs[o.Site])...)
	}
	out := make([]Variable, 0, len(byName))
	for _, v := range byName {
		v.Shared = v.Goroutines >= 2
		sort.Ints(v.Sites)
		v.Sites = dedup(v.Sites)
		if len(v.Sites) > 0 {
			out = append(out, *v)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Shared != b.Shared {
			return a.Shared
		}
		if a.K != b.K {
			return a.K < b.K
		}
		return a.Name < b.Name
	})
	return out
}

func dedup(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// Subsets calls yield with every v-subset of 0..n-1 (indexes into a
// ranking), in lexicographic order, so that subsets of higher-ranked
// variables come first; it stops when yield returns false.
func Subsets(n, v int, yield func([]int) bool) {
	if v > n || v < 0 {
		return
	}
	idx := make([]int, v)
	for i := range idx {
		idx[i] = i
	}
	for {
		if !yield(append([]int(nil), idx...)) {
			return
		}
		i := v - 1
		for i >= 0 && idx[i] == n-v+i {
			i--
		}
		if i < 0 {
			return
		}
		idx[i]++
		for j := i + 1; j < v; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// observedSites returns the sites of ids, the memory sites at o's
// position, that o stands for.
func observedSites(o pct.Observation, ids []int) []int {
	if o.ID <= 0 {
		return ids
	}
	for _, id := range ids {
		if id == o.ID-1 {
			return []int{id}
		}
	}
	return nil
}
