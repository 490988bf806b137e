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
// of every example and corpus test must be predicted by the analysis.
func TestAliasSoundOnExamplesAndCorpus(t *testing.T) {
	modules := []string{"../examples"}
	if !testing.Short() {
		modules = append(modules, "../corpus")
	}
	for _, mod := range modules {
		res := analyzeModule(t, mod)
		dirs := packagesUnder(t, mod)
		total := 0
		for _, dir := range dirs {
			total += checkSound(t, res, dir)
		}
		t.Logf("%s: %d packages, %d observed (site, variable) pairs, all predicted", mod, len(dirs), total)
	}
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
