package alias

import (
	"slices"

	"github.com/gopct/gopct/pct"
)

// An Observation is what a profiling run of the runtime saw (the record
// schema's pct.Observation, one type for runtime and analysis): the variable a
// site really touched. Var follows Var.Name: "pkgpath.Name" for a global,
// the allocation expression's start "file:line:col" for an object (the
// runtime learns it from the instrumented allocation site). Site is the
// executed site's "file:line:col"; an observation with an empty Site is a
// per-variable total (k_q and the number of distinct goroutines) and is not
// checked against the sites.
type Observation = pct.Observation

// A Miss is an observed (site, variable) pair the analysis did not predict:
// a soundness failure of the analysis (or a naming mismatch with the
// runtime, which Reason helps tell apart).
type Miss struct {
	Observation
	Reason string
}

// Check returns the observations the analysis failed to predict.
func (r *Result) Check(obs []Observation) []Miss {
	var missed []Miss
	for _, o := range obs {
		if o.Site == "" {
			continue
		}
		v := r.Var(o.Var)
		switch {
		case v == nil:
			missed = append(missed, Miss{o, "variable not in Q"})
		case !slices.Contains(r.SitesAt(o.Site), v.ID):
			missed = append(missed, Miss{o, "site not predicted to touch the variable"})
		case o.ID > 0 && !slices.Contains(r.byKey[observedKey(o)], v.ID):
			// The position's sites together touch it, but not those of
			// the observed site's key (a map operation, or a plain access,
			// pct.VarKey), whose table the memory gate reads.
			missed = append(missed, Miss{o, "the site's kind at that position not predicted to touch the variable"})
		}
	}
	return missed
}

// Observed is the aggregate of observations for one variable.
type Observed struct {
	Accesses   int `json:"accesses"`
	Goroutines int `json:"goroutines"`
}

// Aggregate folds observations per variable name. Per-variable totals
// (empty Site) win; otherwise accesses are summed over sites and goroutines
// is the largest per-site count (a lower bound of the distinct total).
func Aggregate(obs []Observation) map[string]Observed {
	totals := map[string]Observed{}
	sums := map[string]Observed{}
	for _, o := range obs {
		if o.Site == "" {
			totals[o.Var] = Observed{o.Accesses, o.Goroutines}
			continue
		}
		s := sums[o.Var]
		s.Accesses += o.Accesses
		s.Goroutines = max(s.Goroutines, o.Goroutines)
		sums[o.Var] = s
	}
	for k, v := range sums {
		if _, ok := totals[k]; !ok {
			totals[k] = v
		}
	}
	return totals
}

// observedKey is the table key of an observation's site (an observation
// of a runtime that names its site, ID > 0, says whether it is a map
// operation).
func observedKey(o Observation) string {
	if o.Map {
		return pct.VarKey(o.Site, pct.KindMapRead)
	}
	return pct.VarKey(o.Site, pct.KindRead)
}
