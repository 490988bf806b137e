package alias

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// SiteVars is what the instrumenter joins with its own sites: every site
// with variables is there with the same variables, and local-only sites
// are known to touch nothing.
func TestSiteVars(t *testing.T) {
	r := testdataResult(t)
	table := r.SiteVars()
	for _, s := range r.Sites {
		if got := table[s.Pos]; !slices.Equal(got, r.SitesAt(s.Pos)) {
			t.Errorf("%s: table %v, SitesAt %v", s.Pos, got, r.SitesAt(s.Pos))
		}
	}
	for _, s := range r.allSites {
		got := table[s.Pos]
		if got == nil {
			t.Errorf("%s: nil variables (unknown) for a site the analysis saw", s.Pos)
		}
		for _, v := range s.Vars {
			if !slices.Contains(got, v) {
				t.Errorf("%s: table %v lacks %d", s.Pos, got, v)
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
