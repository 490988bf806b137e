package campaign

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gopct/gopct/pct"
)

// A build exposes Q and, per site, the variables it may touch: in the
// crash module the increment n++ may touch n, the escaping local declared
// at crash_test.go:13:2, and nothing else.
func TestBinaryExposesQ(t *testing.T) {
	bin, err := Build(filepath.Join("testdata", "mod", "crash"), ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	if bin.Analysis != "" {
		t.Fatalf("no site→variable table: %s", bin.Analysis)
	}
	ids, err := bin.VarIDs([]string{"crash/crash_test.go:13:2"})
	if err != nil {
		t.Fatalf("%v; Q = %+v", err, bin.Vars)
	}
	inc := 0
	for i, s := range bin.Sites {
		if s.Pos == "crash/crash_test.go:19:4" && (s.Kind == pct.KindRead || s.Kind == pct.KindWrite) {
			inc++
			if !slices.Equal(bin.SiteVars[i], []int32{int32(ids[0])}) {
				t.Errorf("site %d (%s %s) may touch %v, want [%d]", i, s.Pos, s.Expr, bin.SiteVars[i], ids[0])
			}
		}
	}
	if inc != 2 {
		t.Errorf("%d memory sites for n++, want a read and a write", inc)
	}
	if _, err := bin.VarIDs([]string{"nosuch"}); err == nil {
		t.Error("an unknown variable name was accepted")
	}
}

// An analysis that panics degrades to no table instead of failing.
func TestAnalysisFailureDegrades(t *testing.T) {
	table, err := analyze(nil)
	if table != nil || err == nil {
		t.Fatalf("analyze(nil) = %v, %v; want no table and an error", table, err)
	}
	b := &Binary{Package: "p", Analysis: err.Error()}
	if _, err := b.VarIDs([]string{"x"}); err == nil {
		t.Error("-vars accepted without a table")
	}
	if ids, err := b.VarIDs(nil); ids != nil || err != nil {
		t.Errorf("no -vars: %v, %v", ids, err)
	}
}

func TestAnalysisOff(t *testing.T) {
	t.Setenv("GOPCT_ALIAS", "off")
	bin, err := Build(filepath.Join("testdata", "mod", "crash"), ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	if bin.Vars != nil || bin.Analysis == "" || slices.ContainsFunc(bin.SiteVars, func(v []int32) bool { return v != nil }) {
		t.Errorf("GOPCT_ALIAS=off: vars %v, analysis %q; want no table, every site unknown", bin.Vars, bin.Analysis)
	}
}
