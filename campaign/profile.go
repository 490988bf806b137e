package campaign

import (
	"github.com/gopct/gopct/pct"
)

// Profile runs n executions of every test matching run in profiling mode
// (random walk, all sites on) and returns what the sites touched, merged
// over the tests.
func (b *Binary) Profile(run string, n int, seed uint64) ([]pct.Observation, error) {
	return b.profileWith(pct.Spec{Name: "random"}, run, n, seed, 0)
}

// ProfileLoop is Profile with heap variables named per allocation index,
// capped at l-1 (explore -l; pct/loopvars.go).
func (b *Binary) ProfileLoop(run string, n int, seed uint64, l int) ([]pct.Observation, error) {
	return b.profileWith(pct.Spec{Name: "random"}, run, n, seed, l)
}

// profileWith profiles under the given strategy.
func (b *Binary) profileWith(spec pct.Spec, run string, n int, seed uint64, loop int) ([]pct.Observation, error) {
	tests, err := b.Tests(run)
	if err != nil {
		return nil, err
	}
	_, sub := SplitRun(run)
	type obsKey struct {
		site, name string
		id         int
	}
	merged := map[obsKey]pct.Observation{}
	var order []obsKey
	for _, test := range tests {
		cfg := pct.Config{Version: pct.SchemaVersion, Test: test, Sub: sub, Spec: spec, Seed: seed, Iters: n, Workers: 1, Stall: 30, Profile: true, Loop: loop}
		recs, err := b.runWorkers(cfg, nil, runHooks{})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if r.Type != "done" {
				continue
			}
			for _, o := range r.Profile {
				k := obsKey{o.Site, o.Var, o.ID}
				m, ok := merged[k]
				if !ok {
					order = append(order, k)
					merged[k] = o
					continue
				}
				m.Accesses += o.Accesses
				m.Goroutines = max(m.Goroutines, o.Goroutines)
				if o.Access == "write" {
					m.Access = "write"
				}
				merged[k] = m
			}
		}
	}
	out := make([]pct.Observation, 0, len(order))
	for _, k := range order {
		out = append(out, merged[k])
	}
	return out, nil
}
