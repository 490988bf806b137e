package campaign

import (
	"fmt"
	"regexp"
	"time"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

// Explore runs the exhaustive (c)-bounded search of one test: every
// schedule with at most p.Spec.C preemptions, fewest first, until the first
// bug or until the bounds are exhausted. It runs in one worker process (the
// work queue lives in it); p.Iters and p.Budget still cap it.
func (b *Binary) Explore(p Plan, test string) (*results.Summary, error) {
	p.Spec.Name = "exhaustive"
	p.Workers = 1
	p.Coverage = true
	if p.Iters <= 0 {
		p.Iters = 1 << 30
	}
	return b.Hunt(p, test)
}

// coveragePoints caps the points of a coverage curve.
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

// coverageCurve counts the distinct classes after each of up to
// coveragePoints evenly spaced execution counts (and the last).
func coverageCurve(classes []uint64) []results.CoveragePoint {
	step := max(1, (len(classes)+coveragePoints-1)/coveragePoints)
	seen := map[uint64]bool{}
	var out []results.CoveragePoint
	for i, h := range classes {
		seen[h] = true
		if n := i + 1; n%step == 0 || n == len(classes) {
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

// Classify finds the smallest number of preemptions c at which the test
// fails, by exhaustive search with bounds 0, 1, ..., maxC (one search: it
// finishes each bound before the next), and reads v and t off the failing
// schedule: v the distinct variables at its preemptions (each preemption
// counted against the variable the preempted goroutine accessed last, as
// the ISSTA paper does), t the distinct goroutines whose order its switches
// constrain.
func (b *Binary) Classify(p Plan, test string, maxC int) (*Classification, error) {
	start := time.Now()
	p.Spec = pct.Spec{Name: "exhaustive", C: maxC, NoPrune: p.Spec.NoPrune}
	s, err := b.Explore(p, test)
	if err != nil {
		return nil, err
	}
	c := &Classification{Test: test, Package: b.Package, Count: "chess", Executions: s.Executions, MaxC: maxC}
	if s.Bug != nil {
		c.Bug = s.Bug
		c.C = s.Bug.Preemptions
		c.Replay = s.Bug.Replay
		c.V, c.Variables = variablesAtPreemptions(s.Bug)
		c.T = threadsConstrained(s.Bug)
		c.MaxC = 0
	}
	c.Seconds = time.Since(start).Seconds()
	return c, nil
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
	return fmt.Sprintf("BUG   %s %s: %s with (c, v, t) = (%d, %d, %d) (%s; variables %v)%s",
		c.Package, c.Test, c.Bug.Kind, c.C, c.V, c.T, CountText(c.Count), c.Variables, tok)
}
