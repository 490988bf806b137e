package campaign

import (
	"fmt"
	"regexp"
	"time"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
	"github.com/gopct/gopct/vbound"
)

// Explore runs the exhaustive (c)-bounded search of one test: every
// schedule with at most p.Spec.C preemptions, fewest first, until the first
// bug or until the bounds are exhausted. With p.Workers 1 it runs in one
// worker process (the work queue lives in it); with more, the workers
// share the queue, which the campaign owns (queue.go), with the same
// outcome. p.Iters and p.Budget still cap it. p.Spec.Name
// picks the preemption count: "exhaustive" (CHESS) or "exhaustive-issta".
func (b *Binary) Explore(p Plan, test string) (*results.Summary, error) {
	h, err := b.explore(p, test)
	if err != nil {
		return nil, err
	}
	return h.summary, nil
}

func (b *Binary) explore(p Plan, test string) (*huntResult, error) {
	if p.Spec.Name != ISSTASearch {
		p.Spec.Name = "exhaustive"
	}
	p.Workers = max(1, p.Workers)
	p.Coverage = true
	if p.Iters <= 0 {
		p.Iters = 1 << 30
	}
	return b.hunt(p, test)
}

// ISSTASearch is the strategy that counts preemptions as ISSTA'13 does.
const ISSTASearch = "exhaustive-issta"

// Exploration is the search over one variable set.
type Exploration struct {
	Summary *results.Summary
	// Variables names the tracked set; nil: no variable bounding (every
	// memory access is a scheduling point), empty: none (v = 0: only
	// synchronisation operations are).
	Variables []string
	Bugs      []*results.Bug // with AllBugs: every distinct bug, in the order found
}

// ExploreBounded is the search of Algorithm 1 of ISSTA'13 with variable
// bounding: for v = 0, 1, ..., maxV, for each v-subset of the test's shared
// variables (ranked by vbound from profiling runs), every schedule within
// the context bound whose memory scheduling points are the set's accesses
// (synchronisation operations always are). It stops after the first set
// with a bug, unless p.AllBugs. maxV < 0: one search without variable
// bounding.
func (b *Binary) ExploreBounded(p Plan, test string, maxV int) ([]Exploration, error) {
	if maxV < 0 {
		h, err := b.explore(p, test)
		if err != nil {
			return nil, err
		}
		return []Exploration{{Summary: h.summary, Bugs: h.bugs}}, nil
	}
	vars, err := b.rankVariables(p, test)
	if err != nil {
		return nil, err
	}
	var out []Exploration
	shared := len(sharedOf(vars))
	for v := 0; v <= min(maxV, shared); v++ {
		sets := [][]vbound.Variable{{}}
		if v > 0 {
			if sets, err = chooseSets(vars, v, nil, b.siteExpr); err != nil {
				return nil, err
			}
		}
		for _, set := range sets {
			q := p
			q.sets, q.Spec.V = set, v
			h, err := b.explore(q, test)
			if err != nil {
				return nil, err
			}
			names := []string{}
			for _, x := range set {
				names = append(names, x.Name)
			}
			out = append(out, Exploration{Summary: h.summary, Variables: names, Bugs: h.bugs})
			if h.summary.Bug != nil && !p.AllBugs {
				return out, nil
			}
		}
	}
	return out, nil
}

func sharedOf(vars []vbound.Variable) (out []vbound.Variable) {
	for _, x := range vars {
		if x.Shared {
			out = append(out, x)
		}
	}
	return out
}

// distinctBugs reports every bug record once per kind, place and message,
// or per key where the report has one (a race's site pair: workers report
// the same race with other goroutines or the accesses in the other order);
// every one with all.
func distinctBugs(recs []pct.Record, report func(*pct.BugReport) *results.Bug, all bool) []*results.Bug {
	seen := map[string]bool{}
	var out []*results.Bug
	for _, r := range recs {
		if r.Type != pct.RecBug {
			continue
		}
		key := string(r.Bug.Kind) + "\x00" + r.Bug.At + "\x00" + r.Bug.Message
		if r.Bug.Key != "" {
			key = r.Bug.Key
		}
		if !seen[key] || all {
			seen[key] = true
			out = append(out, report(r.Bug))
		}
	}
	return out
}

// coveragePoints caps the points of a coverage curve: every one of the
// first 50 executions, then evenly spaced ones (and the last).
const coveragePoints = 200

// executionClasses orders the workers' per-execution happens-before hashes
// by execution: workers run executions w, w+W, ..., so their lists
// interleave.
func executionClasses(recs []pct.Record) []uint64 {
	var lists [][]uint64
	for _, r := range recs {
		if r.Type == pct.RecDone && len(r.Classes) > 0 {
			lists = append(lists, r.Classes)
		}
	}
	var out []uint64
	for i := 0; ; i++ {
		added := false
		for _, l := range lists {
			if i < len(l) {
				out, added = append(out, l[i]), true
			}
		}
		if !added {
			return out
		}
	}
}

// coverageCurve counts the distinct classes after each of the first 50
// executions, then after evenly spaced execution counts (and the last),
// coveragePoints in all at most.
func coverageCurve(classes []uint64) []results.CoveragePoint {
	const head = 50
	step := max(1, (len(classes)+coveragePoints-head-1)/(coveragePoints-head))
	seen := map[uint64]bool{}
	var out []results.CoveragePoint
	for i, h := range classes {
		seen[h] = true
		if n := i + 1; n <= head || n%step == 0 || n == len(classes) {
			out = append(out, results.CoveragePoint{Executions: n, Classes: len(seen)})
		}
	}
	return out
}

// Classification is the smallest (c, v, t) at which a test fails.
type Classification struct {
	Test       string       `json:"test"`
	Package    string       `json:"package"`
	C          int          `json:"c"`
	V          int          `json:"v"`
	T          int          `json:"t"`
	Count      string       `json:"count"` // how preemptions are counted: "chess"
	Variables  []string     `json:"variables"`
	Replay     string       `json:"replay"`
	Executions int          `json:"executions"`
	Bug        *results.Bug `json:"bug,omitempty"`
	// MaxC is the bound reached when no bug was found (Bug nil).
	MaxC    int     `json:"maxC,omitempty"`
	Seconds float64 `json:"seconds"`
	// Token is, for gopct classify TOKEN, the (c, v, t) of the token's own
	// schedule (the smallest is above).
	Token *CVT `json:"token,omitempty"`
	// TSearch (classify -tsearch) is the smallest T for which the ISSTA
	// search restricted to a T-family of priority orders (ISSTA'13 §4,
	// -count issta -t T) fails within C preemptions; 0: none up to
	// TSearchMax. TSearchExecutions counts that search's executions.
	TSearch           *int `json:"tSearch,omitempty"`
	TSearchMax        int  `json:"tSearchMax,omitempty"`
	TSearchExecutions int  `json:"tSearchExecutions,omitempty"`
}

// CVT is the (c, v, t) of one schedule.
type CVT struct {
	C int `json:"c"`
	V int `json:"v"`
	T int `json:"t"`
}

// TokenPlan is the plan that classifies a token's test: its package, test
// and subtests, with the settings its bug was found with.
func TokenPlan(p Plan, t Token) Plan {
	p.Package, p.Deps, p.LazyTime, p.MaxSteps = t.Package, t.Deps, t.LazyTime, t.MaxSteps
	p.Timeout, p.MaxDelay = time.Duration(t.Timeout), time.Duration(t.MaxDelay)
	p.Run = "^" + regexp.QuoteMeta(t.Test) + "$"
	if t.Sub != "" {
		p.Run += "/" + t.Sub
	}
	return p
}

// ClassifyToken replays a token, for the (c, v, t) of its own schedule,
// and classifies its test: the smallest (c, v, t) at which it fails.
func (b *Binary) ClassifyToken(p Plan, t Token, maxC int) (*Classification, error) {
	res, err := b.Replay(t)
	if err != nil {
		return nil, err
	}
	c, err := b.Classify(TokenPlan(p, t), t.Test, maxC)
	if err != nil {
		return nil, err
	}
	if res.Bug != nil && res.Diverged == "" {
		c.Token = &CVT{C: res.Bug.Preemptions, V: len(res.Bug.Variables), T: res.Bug.Threads}
	}
	return c, nil
}

// Classify finds the smallest (c, v, t) at which the test fails, in that
// order of priority. c: by exhaustive search with bounds 0, 1, ..., maxC
// (one search: it finishes each bound before the next). v and t are read
// off failing schedules (v the distinct variables at the preemptions, each
// counted against the variable the preempted goroutine accessed last, as
// the ISSTA paper does; t the goroutines the schedule orders, see
// threadsConstrained); a second search, of every schedule up to c,
// collects every failing one and keeps the smallest (v, t).
func (b *Binary) Classify(p Plan, test string, maxC int) (*Classification, error) {
	start := time.Now()
	p.Spec = pct.Spec{Name: p.Spec.Name, C: maxC, T: p.Spec.T, NoPrune: p.Spec.NoPrune}
	p.AllBugs = false
	s, err := b.Explore(p, test)
	if err != nil {
		return nil, err
	}
	c := &Classification{Test: test, Package: b.Package, Count: CountCHESS, Executions: s.Executions, MaxC: maxC}
	if p.Spec.Name == ISSTASearch {
		c.Count = CountISSTA
	}
	if s.Bug != nil {
		best, err := b.smallestVT(p, test, s.Bug)
		if err != nil {
			return nil, err
		}
		c.Bug, c.C, c.Replay, c.MaxC = best, best.Preemptions, best.Replay, 0
		c.V, c.Variables = variablesAtPreemptions(best)
		c.T = threadsConstrained(best)
		if p.TSearch {
			if err := b.searchT(p, test, c); err != nil {
				return nil, err
			}
		}
	}
	c.Seconds = time.Since(start).Seconds()
	return c, nil
}

// searchT finds the smallest T, from 2, for which the ISSTA search with
// thread bound T (a family of priority orders that puts every T goroutines
// in every relative order, ISSTA'13 §4) fails within c.C preemptions, as
// ISSTA counts them. T goes up to the goroutines of the failing schedule
// (at most 8): that family orders all of them every way.
func (b *Binary) searchT(p Plan, test string, c *Classification) error {
	found := 0
	c.TSearchMax = min(8, max(2, len(c.Bug.Goroutines)))
	for t := 2; t <= c.TSearchMax; t++ {
		q := p
		q.Spec = pct.Spec{Name: ISSTASearch, C: c.C, T: t, NoPrune: p.Spec.NoPrune}
		s, err := b.Explore(q, test)
		if err != nil {
			return err
		}
		c.TSearchExecutions += s.Executions
		if s.Bug != nil {
			found = t
			break
		}
	}
	c.TSearch = &found
	return nil
}

// smallestVT searches every schedule with at most first.Preemptions
// preemptions again, keeping every failing one, and returns the one with
// the fewest preemptions, then variables, then goroutines (the first found
// among equals).
func (b *Binary) smallestVT(p Plan, test string, first *results.Bug) (*results.Bug, error) {
	p.Spec.C = first.Preemptions
	p.AllBugs, p.everyBug = true, true
	h, err := b.explore(p, test)
	if err != nil {
		return nil, err
	}
	best := first
	key := func(x *results.Bug) [3]int {
		v, _ := variablesAtPreemptions(x)
		return [3]int{x.Preemptions, v, threadsConstrained(x)}
	}
	for _, x := range h.bugs {
		if k, kb := key(x), key(best); k[0] < kb[0] || k[0] == kb[0] && (k[1] < kb[1] || k[1] == kb[1] && k[2] < kb[2]) {
			best = x
		}
	}
	return best, nil
}

// variablesAtPreemptions counts the distinct memory operations the
// preempted goroutines were at (their last access), named by the access's
// source text.
func variablesAtPreemptions(b *results.Bug) (int, []string) {
	seen := map[string]bool{}
	names := []string{} // [] rather than null in JSON
	for _, ev := range b.Trace {
		if !ev.Preemptive || ev.Var == "" {
			continue
		}
		if !seen[ev.Var] {
			seen[ev.Var] = true
			names = append(names, ev.Var)
		}
	}
	return len(names), names
}

// threadsConstrained reads t off a failing schedule: the goroutines whose
// relative order the schedule constrains. A preemption constrains the
// preempted goroutine and every goroutine that runs before it resumes (they
// are ordered into its window: Figure 9 of the ISSTA paper, where two
// incrementers must both run inside one reader's window, is t = 3). Without
// preemptions the order in which goroutines run is the constraint, so every
// goroutine that runs counts, except the test goroutine (g0), whose order
// only matters where it is preempted or runs inside a window. Time is not a
// goroutine; t is at least 2, as in the paper. It is an upper bound of the
// paper's t: a goroutine that merely runs inside a window is counted though
// the bug may not need it there.
func threadsConstrained(b *results.Bug) int {
	seen := map[string]bool{}
	add := func(g string) {
		if g != "" && g != "time" && g != "-" {
			seen[g] = true
		}
	}
	if b.Preemptions == 0 {
		for _, ev := range b.Trace {
			if ev.From != testGoroutine {
				add(ev.From)
			}
			if ev.To != testGoroutine {
				add(ev.To)
			}
		}
		return max(len(seen), 2)
	}
	open := map[string]bool{} // preempted goroutines not resumed yet
	for _, ev := range b.Trace {
		delete(open, ev.To)
		if ev.Preemptive {
			open[ev.From] = true
		}
		if ev.Preemptive || len(open) > 0 {
			add(ev.From)
			add(ev.To)
		}
	}
	return max(len(seen), 2)
}

// testGoroutine is the name the trace gives the test's own goroutine (the
// first one of the execution).
const testGoroutine = "g0"

// CountText says how preemptions are counted, for reports.
func CountText(count string) string {
	if count == CountISSTA {
		return "preemptions counted as ISSTA'13 does: switches against the priority order"
	}
	return "preemptions counted as CHESS does: every switch away from a goroutine that could continue"
}

// How preemptions are counted: the names classify and explore report.
const (
	CountCHESS = "chess"
	CountISSTA = "issta"
)

// String renders a classification for a person.
func (c *Classification) String() string {
	tok := ""
	if c.Token != nil {
		tok = fmt.Sprintf("; the token's own schedule has (c, v, t) = (%d, %d, %d)", c.Token.C, c.Token.V, c.Token.T)
	}
	if c.Bug == nil {
		return fmt.Sprintf("ok    %s %s: no bug up to c=%d (%d schedules, search complete)%s", c.Package, c.Test, c.MaxC, c.Executions, tok)
	}
	if c.TSearch != nil {
		if *c.TSearch > 0 {
			tok += fmt.Sprintf("; t by search over priority-order families (-count issta -t T, c=%d): %d (%d schedules)", c.C, *c.TSearch, c.TSearchExecutions)
		} else {
			tok += fmt.Sprintf("; t by search over priority-order families: no T up to %d fails with c=%d as ISSTA counts preemptions (%d schedules)", c.TSearchMax, c.C, c.TSearchExecutions)
		}
	}
	return fmt.Sprintf("BUG   %s %s: %s with (c, v, t) = (%d, %d, %d) (%s; variables %v)%s",
		c.Package, c.Test, c.Bug.Kind, c.C, c.V, c.T, CountText(c.Count), c.Variables, tok)
}
