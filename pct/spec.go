package pct

import (
	"fmt"
	"sort"
	"strings"
)

// Spec names a strategy and its parameters. It is plain data: it travels in
// the campaign's Config, in replay tokens and in result records, so that
// everything downstream knows how a schedule was made (and, for bounded
// strategies, within which (c, v, t)).
type Spec struct {
	Name string `json:"name"`           // pct | random | replay | ...
	D    int    `json:"d,omitempty"`    // PCT bug depth: d-1 priority change points
	C    int    `json:"c,omitempty"`    // context (preemption) bound
	V    int    `json:"v,omitempty"`    // variable bound
	T    int    `json:"t,omitempty"`    // thread bound
	L    int    `json:"l,omitempty"`    // loop-iteration bound of heap variables
	Vars []int  `json:"vars,omitempty"` // tracked variables (ids of Q); nil: all
	// Sites are the sites where preemptions may happen (the access sites
	// of Vars, resolved by the tool); nil: every scheduling point.
	Sites   []int `json:"sites,omitempty"`
	NoPrune bool  `json:"noPrune,omitempty"` // exhaustive: no happens-before pruning
}

// String renders the spec for reports, e.g. "pct d=3".
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(s.Name)
	for _, p := range []struct {
		name string
		v    int
	}{{"d", s.D}, {"c", s.C}, {"v", s.V}, {"t", s.T}, {"l", s.L}} {
		if p.v != 0 {
			fmt.Fprintf(&b, " %s=%d", p.name, p.v)
		}
	}
	if len(s.Vars) > 0 {
		fmt.Fprintf(&b, " vars=%v", s.Vars)
	}
	return b.String()
}

// strategies maps a strategy name to its constructor. Tests of this package
// add strategies of their own. Replay is built apart: it needs the recorded
// schedule.
var strategies = map[string]func(Spec) (Strategy, error){
	"random": func(Spec) (Strategy, error) { return &randomWalk{}, nil },
	"pct": func(s Spec) (Strategy, error) {
		if s.D < 1 {
			return nil, fmt.Errorf("pct needs d >= 1, got %d", s.D)
		}
		if s.T > 0 {
			return newPCTTB(s.D, s.T), nil
		}
		return newPCT(s.D), nil
	},
	"portfolio": func(s Spec) (Strategy, error) {
		if s.D < 1 {
			return nil, fmt.Errorf("portfolio needs d >= 1, got %d", s.D)
		}
		return newPortfolio(s.D, s.T), nil
	},
	"exhaustive": func(s Spec) (Strategy, error) {
		if s.C < 0 {
			return nil, fmt.Errorf("exhaustive needs c >= 0, got %d", s.C)
		}
		return newExhaustive(s), nil
	},
}

// NewStrategy builds the strategy a spec names.
func NewStrategy(s Spec) (Strategy, error) {
	mk, ok := strategies[s.Name]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q", s.Name)
	}
	return mk(s)
}

// Strategies lists the names NewStrategy knows, for help texts.
func Strategies() []string {
	var names []string
	for n := range strategies {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
