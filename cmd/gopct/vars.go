package main

import (
	"io"
	"os"

	"github.com/gopct/gopct/alias"
	"github.com/gopct/gopct/campaign"
)

// vars wires `gopct vars` (package alias) to the runtime's profiling mode.
func vars(args []string, stdout, stderr io.Writer) int {
	return alias.VarsCommand{Profile: profileTests}.Main(args, stdout, stderr)
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
