package alias

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopct/gopct/pct"
)

// SiteVars is what the instrumenter joins with its own sites, by
// pct.VarKey: the plain and the map key of a position together hold the
// variables of the sites there, every site the analysis saw has a key,
// and local-only sites are known to touch nothing.
func TestSiteVars(t *testing.T) {
	r := testdataResult(t)
	table := r.SiteVars()
	keys := func(pos string) (plain, maps []VarID) {
		return table[pct.VarKey(pos, pct.KindRead)], table[pct.VarKey(pos, pct.KindMapRead)]
	}
	for _, s := range r.Sites {
		plain, maps := keys(s.Pos)
		if got := mergeIDs(append([]VarID{}, plain...), maps); !slices.Equal(got, r.SitesAt(s.Pos)) {
			t.Errorf("%s: table %v + %v, SitesAt %v", s.Pos, plain, maps, r.SitesAt(s.Pos))
		}
	}
	for _, s := range r.allSites {
		plain, maps := keys(s.Pos)
		if plain == nil && maps == nil {
			t.Errorf("%s: nil variables (unknown) for a site the analysis saw", s.Pos)
		}
		for _, v := range s.Vars {
			if !slices.Contains(plain, v) && !slices.Contains(maps, v) {
				t.Errorf("%s: table %v + %v lacks %d", s.Pos, plain, maps, v)
			}
		}
	}
	if len(table) < len(r.Sites)/2 {
		t.Errorf("table of %d sites for %d sites with variables", len(table), len(r.Sites))
	}
}

func TestDeadlineStopsTheSolve(t *testing.T) {
	p := testdataResult(t).Prog
	_, err := Analyze(p, Options{Deadline: time.Now().Add(-time.Second)})
	if !errors.Is(err, ErrTooSlow) {
		t.Fatalf("Analyze past its deadline: %v, want ErrTooSlow", err)
	}
}

// `p.m[k] = v` loads the field m of *p and writes the map it holds, at one
// position: the plain key has the struct alone, the map key the map alone
// (variable bounding of one of them must not make the other's accesses
// scheduling points).
func TestSiteVarsKeepMapOperationsApart(t *testing.T) {
	r := testdataResult(t)
	table := r.SiteVars()
	for _, s := range r.Sites {
		if !strings.HasSuffix(s.Pos, "generics.go:18:38") {
			continue
		}
		kinds := func(ids []VarID) (out []string) {
			for _, id := range ids {
				out = append(out, r.Vars[id].Type)
			}
			return out
		}
		plain := kinds(table[pct.VarKey(s.Pos, pct.KindRead)])
		maps := kinds(table[pct.VarKey(s.Pos, pct.KindMapWrite)])
		if len(plain) != 1 || !strings.HasPrefix(plain[0], "*generics.Pair") || len(maps) != 1 || !strings.HasPrefix(maps[0], "map[") {
			t.Fatalf("%s: plain key %v, map key %v; want the Pair, then the map", s.Pos, plain, maps)
		}
		return
	}
	t.Fatal("no site at generics.go:18:38 (p.m[k] = v)")
}
