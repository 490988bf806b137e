package campaign

import (
	"fmt"
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
	if p.Iters <= 0 {
		p.Iters = 1 << 30
	}
	return b.Hunt(p, test)
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
	var names []string
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

// threadsConstrained estimates t from the failing schedule: the goroutines
// that take part in its preemptions (preempted or run instead), or, for a
// schedule without preemptions, in its switches (time is not a goroutine).
// It is an upper bound of the t the bug needs; the exact t needs
// thread-bounded search.
func threadsConstrained(b *results.Bug) int {
	seen := map[string]bool{}
	for _, ev := range b.Trace {
		if b.Preemptions > 0 && !ev.Preemptive {
			continue
		}
		for _, g := range []string{ev.From, ev.To} {
			if g != "" && g != "time" && g != "-" {
				seen[g] = true
			}
		}
	}
	return max(len(seen), 2)
}

// String renders a classification for a person.
func (c *Classification) String() string {
	if c.Bug == nil {
		return fmt.Sprintf("ok    %s %s: no bug up to c=%d (%d schedules, search complete)", c.Package, c.Test, c.MaxC, c.Executions)
	}
	return fmt.Sprintf("BUG   %s %s: %s with (c, v, t) = (%d, %d, %d) (preemptions counted as CHESS does; variables %v)",
		c.Package, c.Test, c.Bug.Kind, c.C, c.V, c.T, c.Variables)
}
