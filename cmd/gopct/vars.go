package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gopct/gopct/alias"
	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/pct"
)

// vars wires `gopct vars` (package alias) to the runtime's profiling mode
// and to PCTVB's choice of variable sets.
func vars(args []string, stdout, stderr io.Writer) int {
	return alias.VarsCommand{Profile: profileTests, Sets: listVBSets, Loop: listLoopVars}.Main(args, stdout, stderr)
}

// profileTests builds each package instrumented and profiles its tests.
func profileTests(_ *alias.Program, _ *alias.Result, patterns []string, run string, n int) ([]alias.Observation, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	var out []alias.Observation
	for _, p := range patterns {
		bin, err := campaign.Build(dir, p, nil)
		if err != nil {
			return nil, err
		}
		obs, err := bin.Profile(run, n, 1)
		bin.Close()
		if err != nil {
			return nil, err
		}
		for _, o := range obs {
			out = append(out, alias.Observation{Site: o.Site, Var: o.Var, Access: o.Access, Goroutines: o.Goroutines, Accesses: o.Accesses})
		}
	}
	return out, nil
}

// listVBSets prints the variable sets `gopct hunt -strategy pctvb -v V`
// tries for each selected test (its default seed-independent profiling:
// seed 1).
func listVBSets(w io.Writer, patterns []string, run string, v int) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	for _, p := range patterns {
		bin, err := campaign.Build(dir, p, nil)
		if err != nil {
			return err
		}
		defer bin.Close()
		tests, err := bin.Tests(run)
		if err != nil {
			return err
		}
		for _, test := range tests {
			plan := campaign.Plan{Dir: dir, Package: p, Spec: pct.Spec{Name: "pctvb", D: 3, V: v}, Seed: 1}
			sets, err := bin.VBSets(plan, test)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s: pctvb -v %d tries %d variable sets, in this order:\n", test, v, len(sets))
			for i, s := range sets {
				fmt.Fprintf(w, "  %d. %s\n", i+1, s)
			}
		}
	}
	return nil
}

// listLoopVars prints the heap variables named per allocation index
// (explore -l) that n profiling runs of each package's tests touched.
func listLoopVars(w io.Writer, patterns []string, run string, n, l int) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	fmt.Fprintf(w, "\nheap variables by allocation site, call stack (@) and loop-iteration number (-l %d: the first %d objects of a site and stack in an execution a variable each, the later ones #%d), %d profiling runs:\n", l, l-1, l-1, n)
	for _, p := range patterns {
		bin, err := campaign.Build(dir, p, nil)
		if err != nil {
			return err
		}
		obs, err := bin.ProfileLoop(run, n, 1, l)
		bin.Close()
		if err != nil {
			return err
		}
		var conv []alias.Observation
		for _, o := range obs {
			conv = append(conv, alias.Observation{Site: o.Site, Var: o.Var, Access: o.Access, Goroutines: o.Goroutines, Accesses: o.Accesses})
		}
		agg := alias.Aggregate(conv)
		names := make([]string, 0, len(agg))
		for name := range agg {
			if strings.Contains(name, "#") {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, name := range names {
			o := agg[name]
			fmt.Fprintf(w, "  %-40s accesses/execution %-6d goroutines %d\n", name, o.Accesses, o.Goroutines)
		}
	}
	return nil
}
