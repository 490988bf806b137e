package alias

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrecisionBeatsTypes: in package precision, four variables share the
// type Acc; the type baseline lets every Acc site touch all of them, the
// points-to analysis only the right one.
func TestPrecisionBeatsTypes(t *testing.T) {
	r := testdataResult(t)
	var vars, baseVars, sites int
	for _, s := range r.allSites {
		if !strings.HasPrefix(s.Pos, "precision/") {
			continue
		}
		sites++
		vars += len(s.Vars)
		baseVars += len(s.Base)
	}
	if sites == 0 {
		t.Fatal("no sites in package precision")
	}
	if vars >= baseVars {
		t.Errorf("precision: points-to %d (site, var) pairs, baseline %d: want strictly fewer", vars, baseVars)
	}
	p := r.Precision()
	t.Logf("testdata: %d vars, %d sites; points-to %.2f vars/site %.2f sites/var; baseline %.2f vars/site %.2f sites/var",
		p.Vars, p.Sites, p.VarsPerSite, p.SitesPerVar, p.BaseVarsPerSite, p.BaseSitesPerVar)
	if p.VarsPerSite >= p.BaseVarsPerSite {
		t.Errorf("whole testdata: points-to %.2f vars/site, baseline %.2f", p.VarsPerSite, p.BaseVarsPerSite)
	}
}

func TestCheck(t *testing.T) {
	r := testdataResult(t)
	v := r.Var("aliastest/precision.x")
	if v == nil || len(v.Sites) == 0 {
		t.Fatal("precision.x missing or without sites")
	}
	obs := []Observation{
		{Site: v.Sites[0].Pos, Var: v.Name, Goroutines: 1, Accesses: 3},   // predicted
		{Site: v.Sites[0].Pos, Var: "aliastest/precision.y", Accesses: 1}, // not predicted
		{Site: v.Sites[0].Pos, Var: "nowhere.go:1:1", Accesses: 1},        // unknown
		{Var: v.Name, Goroutines: 2, Accesses: 7},                         // total, not checked
	}
	missed := r.Check(obs)
	if len(missed) != 2 || missed[0].Var != "aliastest/precision.y" || missed[1].Reason != "variable not in Q" {
		t.Errorf("Check = %+v", missed)
	}
	if agg := Aggregate(obs)[v.Name]; agg.Accesses != 7 || agg.Goroutines != 2 {
		t.Errorf("Aggregate = %+v", agg)
	}
}

// runVars runs the command in dir.
func runVars(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	abs, _ := filepath.Abs(dir)
	if err := os.Chdir(abs); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	t.Setenv("GOWORK", "off")
	var out, errb bytes.Buffer
	code := VarsMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestVarsJSONAndRun(t *testing.T) {
	code, out, errs := runVars(t, "testdata/src", "-json", "./precision")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.Contains(out, `"id":"aliastest/precision.x","kind":"global","pos":"precision/precision.go:7:5","type":"precision.Acc","sites":[{"pos":"precision/precision.go:10:2","access":"read"},{"pos":"precision/precision.go:10:2","access":"write"}],"observed":null`) {
		t.Errorf("unexpected JSON:\n%s", out)
	}
	code, _, errs = runVars(t, "testdata/src", "-run", "NoSuchTest", "./precision")
	if code != 2 || !strings.Contains(errs, "matches -run") {
		t.Errorf("-run without match: exit %d, %q", code, errs)
	}
}

func TestVarsErrors(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runVars(t, dir)
	if code != 2 || !strings.Contains(errs, "not inside a Go module") || strings.Contains(errs, "goroutine ") {
		t.Errorf("outside module: exit %d, %q", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module bad\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package bad\n\nfunc F() int { return undefined }\n"), 0o644)
	code, _, errs = runVars(t, dir)
	if code != 2 || !strings.Contains(errs, "do not compile") || !strings.Contains(errs, "undefined") {
		t.Errorf("broken package: exit %d, %q", code, errs)
	}
}
