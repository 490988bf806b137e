package results

import (
	"fmt"
	"io"
	"sort"
	"strconv"
)

// A report is built from summaries (one results file or several, merged):
// the hunts, the executions to the first bug per strategy, and the time
// per execution of each test under each strategy (the overhead table).

// StrategyLabel names a summary's strategy with its parameters.
func StrategyLabel(s *Summary) string {
	if s.Spec.Name == "" {
		return s.Strategy
	}
	return s.Spec.String()
}

// WriteReport prints the report's tables (Markdown when markdown is set).
func WriteReport(w io.Writer, ss []*Summary, markdown bool) error {
	sections := []struct {
		title  string
		header []string
		rows   [][]string
	}{
		{"Hunts", huntHeader, huntRows(ss)},
		{"Executions to the first bug, per strategy", firstBugHeader, firstBugRows(ss)},
	}
	oh, orows := overheadTable(ss)
	sections = append(sections, struct {
		title  string
		header []string
		rows   [][]string
	}{"Time per execution (overhead against the test's fastest strategy)", oh, orows})
	for i, sec := range sections {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s\n\n", sec.title)
		if err := WriteTable(w, sec.header, sec.rows, markdown); err != nil {
			return err
		}
	}
	return nil
}

var huntHeader = []string{"package", "test", "strategy", "seed", "executions", "finished", "bug", "first bug at", "c", "v", "t", "seconds", "exec/s"}

func huntRows(ss []*Summary) [][]string {
	var rows [][]string
	for _, s := range ss {
		bug, at, c, v, t := "-", "-", "-", "-", "-"
		if b := s.Bug; b != nil {
			bug, at = string(b.Kind), strconv.Itoa(b.Execution)
			c, v, t = strconv.Itoa(b.Preemptions), strconv.Itoa(len(b.Variables)), strconv.Itoa(b.Threads)
		}
		rows = append(rows, []string{s.Package, s.Test, StrategyLabel(s), strconv.FormatUint(s.Seed, 10),
			strconv.Itoa(s.Executions), strconv.Itoa(s.Finished), bug, at, c, v, t,
			fmt.Sprintf("%.2f", s.Seconds), rate(s)})
	}
	return rows
}

func rate(s *Summary) string {
	if s.Seconds <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(s.Executions)/s.Seconds)
}

var firstBugHeader = []string{"strategy", "hunts", "bugs found", "median executions to bug", "mean", "min", "max"}

// ExecutionsToBug groups, per strategy, the executions each hunt needed
// to its first bug (the failing index + 1), in strategy order.
func ExecutionsToBug(ss []*Summary) (strategies []string, hunts map[string]int, found map[string][]float64) {
	hunts, found = map[string]int{}, map[string][]float64{}
	for _, s := range ss {
		l := StrategyLabel(s)
		if hunts[l] == 0 {
			strategies = append(strategies, l)
		}
		hunts[l]++
		if s.Bug != nil {
			found[l] = append(found[l], float64(s.Bug.Execution-s.First+1))
		}
	}
	return strategies, hunts, found
}

func firstBugRows(ss []*Summary) [][]string {
	strategies, hunts, found := ExecutionsToBug(ss)
	var rows [][]string
	for _, l := range strategies {
		xs := append([]float64(nil), found[l]...)
		row := []string{l, strconv.Itoa(hunts[l]), strconv.Itoa(len(xs)), "-", "-", "-", "-"}
		if len(xs) > 0 {
			sort.Float64s(xs)
			sum := 0.0
			for _, x := range xs {
				sum += x
			}
			row[3] = fmt.Sprintf("%.0f", median(xs))
			row[4] = fmt.Sprintf("%.1f", sum/float64(len(xs)))
			row[5], row[6] = fmt.Sprintf("%.0f", xs[0]), fmt.Sprintf("%.0f", xs[len(xs)-1])
		}
		rows = append(rows, row)
	}
	return rows
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// overheadTable is the time per execution of each test (rows) under each
// strategy (columns), with its ratio to the row's fastest: what a
// strategy costs on the same program. A strategy named "native" (a plain
// go test run), when recorded, is the fastest by definition.
func overheadTable(ss []*Summary) ([]string, [][]string) {
	var tests, strategies []string
	cell := map[[2]string][2]float64{} // (test, strategy) -> seconds, executions
	for _, s := range ss {
		t, l := s.Package+" "+s.Test, StrategyLabel(s)
		if !contains(tests, t) {
			tests = append(tests, t)
		}
		if !contains(strategies, l) {
			strategies = append(strategies, l)
		}
		c := cell[[2]string{t, l}]
		cell[[2]string{t, l}] = [2]float64{c[0] + s.Seconds, c[1] + float64(s.Executions)}
	}
	header := append([]string{"test"}, strategies...)
	var rows [][]string
	for _, t := range tests {
		best := 0.0
		for _, l := range strategies {
			if c := cell[[2]string{t, l}]; c[1] > 0 && (best == 0 || c[0]/c[1] < best) {
				best = c[0] / c[1]
			}
		}
		row := []string{t}
		for _, l := range strategies {
			c := cell[[2]string{t, l}]
			if c[1] == 0 || best == 0 {
				row = append(row, "-")
				continue
			}
			per := c[0] / c[1]
			row = append(row, fmt.Sprintf("%.3f ms (%.1fx)", per*1000, per/best))
		}
		rows = append(rows, row)
	}
	return header, rows
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// WriteDeaths prints the worker processes a hunt replaced: each died in an
// execution whose replay did not die, so it is no bug, but the user may
// want to look (the machine ran out of memory?).
func WriteDeaths(w io.Writer, s *Summary) {
	for _, d := range s.Deaths {
		fmt.Fprintf(w, "      a worker process died in execution #%d (%s); its replay did not die, so the worker was\n"+
			"      replaced and its chunk run again; to look: gopct replay %s\n", d.Execution, d.Message, d.Replay)
	}
}
