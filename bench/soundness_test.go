package bench

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopct/gopct/alias"
	"github.com/gopct/gopct/campaign"
)

// TestAliasSoundOnExamplesAndCorpus holds the alias analysis against what
// the runtime observes: every (site, variable) pair seen in profiling runs
// of example and corpus tests must be predicted by the analysis.
//
// The suite checks every fourth package of each module (a representative
// part that keeps the suite within its time on a loaded 2-core machine);
// GOPCT_LONG=1 checks them all (docs/DESIGN.md, "Tests and their cost").
func TestAliasSoundOnExamplesAndCorpus(t *testing.T) {
	for _, mod := range []string{"../examples", "../corpus"} {
		res := analyzeModule(t, mod)
		dirs := sample(packagesUnder(t, mod), 4)
		t.Run(filepath.Base(mod), func(t *testing.T) {
			for _, dir := range dirs {
				t.Run(filepath.Base(dir), func(t *testing.T) {
					t.Parallel() // builds and profiling runs overlap; res is only read
					n := checkSound(t, res, dir)
					t.Logf("%d observed (site, variable) pairs, all predicted", n)
				})
			}
		})
	}
}

// sample keeps every k-th directory, or all of them with GOPCT_LONG=1.
func sample(dirs []string, k int) []string {
	if os.Getenv("GOPCT_LONG") == "1" {
		return dirs
	}
	var out []string
	for i := 0; i < len(dirs); i += k {
		out = append(out, dirs[i])
	}
	return out
}

// analyzeModule runs the analysis once over every package of a module.
func analyzeModule(t *testing.T, dir string) *alias.Result {
	t.Helper()
	prog, err := alias.Load(alias.LoadConfig{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	res, err := alias.Analyze(prog, alias.Options{})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return res
}

func checkSound(t *testing.T, res *alias.Result, dir string) int {
	t.Helper()
	bin, err := campaign.Build(dir, ".", nil)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	defer bin.Close()
	obs, err := bin.Profile(".", 10, 1)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	var aobs []alias.Observation
	n := 0
	for _, o := range obs {
		aobs = append(aobs, alias.Observation{Site: o.Site, Var: o.Var, Access: o.Access, Goroutines: o.Goroutines, Accesses: o.Accesses})
		if o.Site != "" {
			n++
		}
	}
	for _, m := range res.Check(aobs) {
		t.Errorf("%s: analysis missed %s at %s (%s)", filepath.Base(dir), m.Var, m.Site, m.Reason)
	}
	return n
}

func packagesUnder(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		abs, _ := filepath.Abs(filepath.Join(root, e.Name()))
		dirs = append(dirs, abs)
	}
	sort.Strings(dirs)
	return dirs
}
