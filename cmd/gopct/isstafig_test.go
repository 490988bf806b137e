package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopct/gopct/campaign"
)

// isstaFigures are the (c, v, t) that Bindal, Bansal & Lal (ISSTA'13) state
// for their Figures 1-4 (§2.1; t is left open there, 2 threads) and 8-10
// (§4), and the schedules gopct classify runs to find them (exact: the
// exhaustive search is deterministic).
var isstaFigures = []struct {
	pkg, test  string
	c, v, t    int
	executions int
}{
	{"isstafig1", "TestFigure1", 0, 0, 2, 1},
	{"isstafig2", "TestFigure2", 1, 1, 2, 7},
	{"isstafig3", "TestFigure3", 2, 1, 2, 49},
	{"isstafig4", "TestFigure4", 2, 2, 2, 63},
	{"isstafig8", "TestFigure8", 0, 0, 3, 4},
	{"isstafig9", "TestFigure9", 1, 1, 3, 51},
	{"isstafig10", "TestFigure10", 2, 2, 3, 453},
}

// TestClassifyISSTAFigures: gopct classify reports for each figure of the
// paper exactly the (c, v, t) the paper states.
func TestClassifyISSTAFigures(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range isstaFigures {
		t.Run(f.pkg, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run([]string{"classify", "-json", "-run", "^" + f.test + "$", filepath.Join(dir, f.pkg)}, &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			var c campaign.Classification
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &c); err != nil || code != 1 || c.Bug == nil {
				t.Fatalf("exit %d, err %v, stderr %s\n%s", code, err, stderr.String(), stdout.String())
			}
			if c.C != f.c || c.V != f.v || c.T != f.t || c.Count != "chess" {
				t.Errorf("(c, v, t) = (%d, %d, %d) counted %q, want (%d, %d, %d) counted \"chess\" (variables %v)",
					c.C, c.V, c.T, c.Count, f.c, f.v, f.t, c.Variables)
			}
			if c.Executions != f.executions || len(c.Variables) != f.v {
				t.Errorf("%d executions, variables %v; want %d executions, %d variables", c.Executions, c.Variables, f.executions, f.v)
			}
			if !strings.HasPrefix(c.Replay, "gopct1.") {
				t.Errorf("replay token %q", c.Replay)
			}
		})
	}
}
