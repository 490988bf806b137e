package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gopct/gopct/results"
)

// methods returns the methods measured, gopct strategies first.
func methods(o Options) []string {
	ms := append([]string(nil), o.Strategies...)
	if o.Stress {
		ms = append(ms, methodStress, methodRace)
	}
	return ms
}

// summarize renders a method's runs on one case for a table cell.
func summarize(runs []Run, buggy bool) string {
	if len(runs) == 0 {
		return "-"
	}
	if strings.HasPrefix(runs[0].Kind, "error") {
		return runs[0].Kind
	}
	found := foundRuns(runs)
	if !buggy {
		if len(found) > 0 {
			return "FALSE REPORT: " + found[0].Kind
		}
		return fmt.Sprintf("clean (%d)", runs[0].Execs)
	}
	if len(found) == 0 {
		return fmt.Sprintf("not found (0/%d)", len(runs))
	}
	execs, secs := medians(found)
	return fmt.Sprintf("%s / %.2fs (%d/%d)", fmtNum(execs), secs, len(found), len(runs))
}

func foundRuns(runs []Run) []Run {
	var out []Run
	for _, r := range runs {
		if r.Found {
			out = append(out, r)
		}
	}
	return out
}

func medians(runs []Run) (float64, float64) {
	var es, ss []float64
	for _, r := range runs {
		es = append(es, float64(r.Execs))
		ss = append(ss, r.Seconds)
	}
	return median(es), median(ss)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

func fmtNum(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprint(int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}

func (r *Result) line(o Options) string {
	parts := []string{r.Case.Package, r.Case.Test}
	for _, m := range o.Strategies {
		parts = append(parts, m+": "+summarize(r.Runs[m], r.Case.Buggy))
	}
	if r.Replays > 0 {
		parts = append(parts, fmt.Sprintf("replays %d/%d", r.Replayed, r.Replays))
		if r.ReplayMiss != "" {
			parts = append(parts, "(first miss: "+r.ReplayMiss+")")
		}
	}
	if r.Err != "" {
		parts = append(parts, "error: "+r.Err)
	}
	return strings.Join(parts, "  ")
}

// WriteMarkdown writes the per-case table, totals per class and the
// comparison of gopct with stress testing.
func WriteMarkdown(w io.Writer, o Options, rs []*Result) error {
	header := []string{"package", "test", "class", "(c,v,t)"}
	ms := methods(o)
	header = append(header, ms...)
	if o.Replays > 0 {
		header = append(header, "replays")
	}
	var rows [][]string
	for _, r := range rs {
		row := []string{r.Case.Package, r.Case.Test, r.Case.Class, r.Case.CVT}
		for _, m := range ms {
			cell := summarize(r.Runs[m], r.Case.Buggy)
			if r.Err != "" && len(r.Runs[m]) == 0 {
				cell = "error: " + r.Err
			}
			row = append(row, cell)
		}
		if o.Replays > 0 {
			row = append(row, replayCell(r))
		}
		rows = append(rows, row)
	}
	fmt.Fprintf(w, "Each cell: median executions to the first failure / median seconds (runs that found it / runs). Correct tests: \"clean (N)\" after N executions, or the false report.\n\n")
	if err := results.WriteTable(w, header, rows, true); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n### Totals per class (bugs found by each method)\n\n")
	if err := writeTotals(w, ms, rs); err != nil {
		return err
	}
	writeComparison(w, o, rs)
	return nil
}

func replayCell(r *Result) string {
	if r.Replays == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", r.Replayed, r.Replays)
}

func writeTotals(w io.Writer, ms []string, rs []*Result) error {
	type tally struct{ bugs, correct int }
	classes := map[string]*tally{}
	found := map[string]map[string]int{}
	falses := map[string]int{}
	for _, r := range rs {
		c := r.Case.Class
		if classes[c] == nil {
			classes[c] = &tally{}
			found[c] = map[string]int{}
		}
		if !r.Case.Buggy {
			classes[c].correct++
			for _, m := range ms {
				if len(foundRuns(r.Runs[m])) > 0 {
					falses[m]++
				}
			}
			continue
		}
		classes[c].bugs++
		for _, m := range ms {
			if len(foundRuns(r.Runs[m])) > 0 {
				found[c][m]++
			}
		}
	}
	header := append([]string{"class", "bugs"}, ms...)
	var rows [][]string
	total := map[string]int{}
	nbugs := 0
	for _, c := range sortedKeys(classes) {
		if classes[c].bugs == 0 {
			continue
		}
		row := []string{c, fmt.Sprint(classes[c].bugs)}
		nbugs += classes[c].bugs
		for _, m := range ms {
			row = append(row, fmt.Sprint(found[c][m]))
			total[m] += found[c][m]
		}
		rows = append(rows, row)
	}
	row := []string{"**all**", fmt.Sprint(nbugs)}
	frow := []string{"false reports on correct tests", ""}
	for _, m := range ms {
		row = append(row, fmt.Sprint(total[m]))
		frow = append(frow, fmt.Sprint(falses[m]))
	}
	rows = append(rows, row, frow)
	return results.WriteTable(w, header, rows, true)
}

// writeComparison compares the best gopct strategy with stress testing
// under -race on the bugs both find, by median executions.
func writeComparison(w io.Writer, o Options, rs []*Result) {
	if !o.Stress {
		return
	}
	var ratios []float64
	onlyGopct, onlyStress := 0, 0
	for _, r := range rs {
		if !r.Case.Buggy {
			continue
		}
		g := bestGopct(o, r)
		s := foundRuns(r.Runs[methodRace])
		switch {
		case g > 0 && len(s) > 0:
			se, _ := medians(s)
			ratios = append(ratios, se/g)
		case g > 0:
			onlyGopct++
		case len(s) > 0:
			onlyStress++
		}
	}
	fmt.Fprintf(w, "\n### gopct against `go test -race -count`\n\n")
	fmt.Fprintf(w, "- bugs found by both: %d; median ratio of executions to first bug (stress-race / best gopct strategy): %.1fx\n", len(ratios), median(ratios))
	fmt.Fprintf(w, "- bugs found by gopct only: %d; by stress testing only: %d\n", onlyGopct, onlyStress)
}

// bestGopct returns the lowest median executions over the gopct strategies,
// or 0 when none found the bug.
func bestGopct(o Options, r *Result) float64 {
	best := 0.0
	for _, m := range o.Strategies {
		f := foundRuns(r.Runs[m])
		if len(f) == 0 {
			continue
		}
		e, _ := medians(f)
		if best == 0 || e < best {
			best = e
		}
	}
	return best
}
