package tbound

import (
	"fmt"
	"io"
)

// paperFigures are the simulated counts ISSTA'13 §4 reports for n = 600
// (c = 0), by t.
var paperFigures = map[int]int{3: 70, 4: 360, 5: 2000}

// Report gathers every figure for one (n, t, c).
type Report struct {
	N          int     `json:"n"`
	T          int     `json:"t"`
	C          int     `json:"c"`
	Fragments  int     `json:"fragments"` // n + c
	Epsilon    float64 `json:"epsilon"`
	Seed       uint64  `json:"seed"`
	LemmaBound int     `json:"lemma_bound"`
	ProofBound int     `json:"proof_bound"`
	UnionBound int     `json:"union_bound"`
	Expected   float64 `json:"expected"`       // mean count, subsets independent
	Indep99    int     `json:"independent_99"` // 99% point, subsets independent
	Simulation
	Paper int `json:"paper,omitempty"` // the paper's figure (n=600, c=0)
}

// Compute fills a Report.
func Compute(c Config) (Report, error) {
	c.defaults()
	if err := c.Validate(); err != nil {
		return Report{}, err
	}
	m := c.N + c.C
	r := Report{N: c.N, T: c.T, C: c.C, Fragments: m, Epsilon: c.Epsilon, Seed: c.Seed,
		LemmaBound: LemmaBound(m, c.T, c.Epsilon),
		ProofBound: ProofBound(m, c.T, c.Epsilon),
		UnionBound: UnionBound(m, c.T, c.Epsilon)}
	r.Expected, r.Indep99 = Independent(m, c.T, c.Epsilon)
	sim, err := Simulate(c)
	if err != nil {
		return Report{}, err
	}
	r.Simulation = sim
	if c.N == 600 && c.C == 0 {
		r.Paper = paperFigures[c.T]
	}
	return r, nil
}

// WriteText prints the report for people.
func (r Report) WriteText(w io.Writer) {
	pct := 100 * (1 - r.Epsilon)
	fmt.Fprintf(w, "every ordering of every %d-subset of %d fragments (n=%d goroutines + c=%d preemptions), probability >= %g%%\n",
		r.T, r.Fragments, r.N, r.C, pct)
	fmt.Fprintf(w, "  Lemma 4.1 as stated, (t+1)(ln(nt)+ln(1/e)):        %d\n", r.LemmaBound)
	fmt.Fprintf(w, "  its proof, P = t!(t ln(nt)+ln(1/e)):                %d\n", r.ProofBound)
	fmt.Fprintf(w, "  the proof's union bound solved exactly:            %d\n", r.UnionBound)
	fmt.Fprintf(w, "  exact per subset, subsets independent: mean %.1f, %g%% point %d\n", r.Expected, pct, r.Indep99)
	if r.Method == "exhaustive" {
		fmt.Fprintf(w, "  simulated (all %d subsets, %d trials, seed %d):  %d\n", r.Checked, r.Trials, r.Seed, r.P99)
	} else {
		fmt.Fprintf(w, "  simulated (%d of %.0f subsets sampled, %d trials, seed %d): %d for the sample, %d extrapolated to all\n",
			r.Checked, r.Total, r.Trials, r.Seed, r.Sample99, r.P99)
	}
	if r.Paper > 0 {
		fmt.Fprintf(w, "  the paper's simulation (ISSTA'13 §4):               %d\n", r.Paper)
	}
}
