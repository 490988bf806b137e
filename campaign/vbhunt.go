package campaign

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
	"github.com/gopct/gopct/vbound"
)

// profileRuns is the number of executions (PCT, d=3: few switches, so
// long tests stay affordable) that profile a test before a
// variable-bounded hunt (k_q, shared-ness, sites).
const profileRuns = 5

// maxSubsets caps the variable sets one PCTVB hunt tries.
const maxSubsets = 64

// HuntVB is a PCTVB hunt (p.Spec.Name "pctvb", p.Spec.V variables per
// set): it profiles the test, ranks its variables (vbound), and splits the
// executions over the v-subsets of the shared variables in rank order, or
// over the one set p.Vars names. Only the tracked variables' sites are
// scheduling points among memory accesses; sync operations always are.
//
// Each set has a range of execution indices of its own, run in rounds:
// every set's next round (a chunk per worker) before any set's round
// after it, so that a bug on a set ranked last is not left until every
// other set has had all its executions, or never reached when -budget
// ends first (the paper draws the set of each run at random, ISSTA'13
// §3: every set has its share of every stretch of the hunt). A round
// starts at a chunk boundary of its set's range, so each execution runs
// with the same schedule as in one sub-hunt per set: only their order
// changes.
func (b *Binary) HuntVB(p Plan, test string) (*results.Summary, error) {
	if p.Spec.V == 0 && len(p.Vars) == 0 {
		// v = 0: no variable tracked, only synchronisation operations are
		// scheduling points; PCT's change points fall on them.
		p.Spec.Name, p.sets = "pct", []vbound.Variable{}
		return b.Hunt(p, test)
	}
	if p.Budget > 0 && p.Start.IsZero() {
		p.Start = time.Now() // one budget for every round of every set
	}
	sets, err := b.vbSets(p, test)
	if err != nil {
		return nil, err
	}
	per := max(1, p.Iters/len(sets))
	round := roundSize(p, per)
	var all []uint64 // every set's execution classes, for the coverage curve
	total := b.Planned(p, test)
	for lo := 0; lo < per; lo += round {
		for i, set := range sets {
			if budgetSpent(p) {
				return vbDone(p, total, all), nil
			}
			q := p
			q.Spec.V = len(set)
			q.sets = set
			q.first = i*per + lo
			q.Iters = i*per + min(lo+round, per)
			q.laterRound = lo > 0
			if p.attachSet != nil {
				p.attachSet(&q, b.Planned(q, test)) // -resume skips the round's recorded chunks
			}
			h, err := b.hunt(q, test)
			if err != nil {
				return nil, err
			}
			s := h.summary
			all = append(all, executionClasses(h.recs)...)
			total.Executions += s.Executions
			total.Finished += s.Finished
			total.Abandoned += s.Abandoned
			total.HeldTimer = max(total.HeldTimer, s.HeldTimer)
			if total.HeldNative == "" {
				total.HeldNative = s.HeldNative
			}
			total.Resumed += s.Resumed
			total.Seconds += s.Seconds
			total.CPUSeconds += s.CPUSeconds
			if s.Bug != nil {
				total.Bug = s.Bug
				total.Spec = s.Spec
				return vbDone(p, total, all), nil
			}
		}
	}
	return vbDone(p, total, all), nil
}

// roundSize is the number of executions of one set in one round of
// HuntVB: a chunk for every worker (of every shard), a whole number of
// chunks so that rounds start at the chunk boundaries of the set's range;
// a quarter of the set's executions when they are not chunked.
func roundSize(p Plan, per int) int {
	if p.Chunk <= 0 || !chunkable(p.Spec) {
		return max(1, (per+3)/4)
	}
	return p.Chunk * max(1, p.Workers) * max(1, p.Shards)
}

// budgetSpent says whether p's -budget has run out (the rounds left
// would start workers only to stop them).
func budgetSpent(p Plan) bool {
	return p.Budget > 0 && time.Since(p.Start) >= p.Budget
}

// vbDone completes the summary of a PCTVB hunt.
func vbDone(p Plan, total *results.Summary, classes []uint64) *results.Summary {
	if p.Coverage {
		total.Coverage = coverageCurve(classes)
	}
	return total
}

// VBSets lists, in order, the variable sets a PCTVB hunt of test with
// p.Spec.V variables per set (or p.Vars) would track, each named as
// reports name it ("name (k=K), ..."): the same profiling (seed p.Seed),
// ranking and enumeration as HuntVB.
func (b *Binary) VBSets(p Plan, test string) ([]string, error) {
	sets, err := b.vbSets(p, test)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(sets))
	for i, set := range sets {
		names[i] = setNames(set)
	}
	return names, nil
}

// rankVariables profiles the test and ranks what it touched.
func (b *Binary) rankVariables(p Plan, test string) ([]vbound.Variable, error) {
	run := "^" + regexp.QuoteMeta(test) + "$"
	if p.Name != "" {
		run = exactRun(p.Name) // a suite method: profile it alone
	}
	obs, err := b.profileWith(pct.Spec{Name: "pct", D: 3}, run, profileRuns, p.Seed, p.Loop)
	if err != nil {
		return nil, err
	}
	ids := map[string][]int{}
	for i, s := range b.Sites {
		if s.Kind == pct.KindRead || s.Kind == pct.KindWrite || s.Kind == pct.KindMapRead || s.Kind == pct.KindMapWrite {
			ids[s.Pos] = append(ids[s.Pos], i)
		}
	}
	return vbound.Rank(obs, ids), nil
}

func (b *Binary) siteExpr(site int) string {
	if site < len(b.Sites) {
		return b.Sites[site].Expr
	}
	return ""
}

// named says whether a variable answers to name: its name in Q
// ("pkg.Name", or an allocation's "file:line:col"), the last element of a
// global's name, or the source text of one of its accesses ("counter",
// "c.n").
func named(x vbound.Variable, name string, exprOf func(int) string) bool {
	if x.Name == name || strings.HasSuffix(x.Name, "."+name) {
		return true
	}
	for _, s := range x.Sites {
		if exprOf(s) == name {
			return true
		}
	}
	return false
}

// vbSets profiles test, ranks its variables and returns, in order, the
// variable sets a PCTVB hunt with plan p tracks.
func (b *Binary) vbSets(p Plan, test string) ([][]vbound.Variable, error) {
	vars, err := b.rankVariables(p, test)
	if err != nil {
		return nil, err
	}
	return chooseSets(vars, p.Spec.V, p.Vars, b.siteExpr)
}

// chooseSets returns the variable sets to hunt with: the named ones, or
// the v-subsets of the shared variables in rank order.
func chooseSets(vars []vbound.Variable, v int, names []string, exprOf func(int) string) ([][]vbound.Variable, error) {
	if len(names) > 0 {
		var set []vbound.Variable
		for _, n := range names {
			found := false
			for _, x := range vars {
				if named(x, n, exprOf) {
					set, found = append(set, x), true
				}
			}
			if !found {
				return nil, userErr("-vars: no variable named %q was accessed in profiling runs (see gopct vars -profile 20)", n)
			}
		}
		return [][]vbound.Variable{set}, nil
	}
	var shared []vbound.Variable
	for _, x := range vars {
		if x.Shared {
			shared = append(shared, x)
		}
	}
	if len(shared) == 0 {
		return nil, userErr("no variable is shared by two goroutines in profiling runs: nothing for variable bounding to track (use -strategy pct)")
	}
	var sets [][]vbound.Variable
	vbound.Subsets(len(shared), min(v, len(shared)), func(idx []int) bool {
		set := make([]vbound.Variable, len(idx))
		for i, j := range idx {
			set[i] = shared[j]
		}
		sets = append(sets, set)
		return len(sets) < maxSubsets
	})
	return sets, nil
}

// applySets fills a worker config for a PCTVB hunt over one variable set.
func applySets(cfg *pct.Config, set []vbound.Variable) {
	if set == nil {
		return
	}
	cfg.Sites = []int{} // no memory site but the set's
	seen := map[int]bool{}
	for _, v := range set {
		cfg.VarSites = append(cfg.VarSites, v.Sites)
		for _, s := range v.Sites {
			if !seen[s] {
				seen[s] = true
				cfg.Sites = append(cfg.Sites, s)
			}
		}
	}
}

// objectsOf lists the object variables of a set (named "file:line:col#i"
// with -l), never nil: with -l a set without one tracks no heap object.
func objectsOf(set []vbound.Variable) []string {
	out := []string{}
	for _, v := range set {
		if strings.Contains(v.Name, "#") {
			out = append(out, v.Name)
		}
	}
	return out
}

// setNames names a variable set for reports.
func setNames(set []vbound.Variable) string {
	var n []string
	for _, v := range set {
		n = append(n, fmt.Sprintf("%s (k=%d)", v.Name, v.K))
	}
	return strings.Join(n, ", ")
}
