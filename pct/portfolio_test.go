package pct

import "testing"

// TestPortfolioMembers: even executions are PCT's, odd ones the walk's,
// and the strategy an execution sees is the member, so that the member's
// optional interfaces (PCT's horizon, the walk's schedule) work.
func TestPortfolioMembers(t *testing.T) {
	p := newPortfolio(3, 0)
	for i, want := range []Strategy{p.pct, p.walk, p.pct, p.walk} {
		p.Begin(i, NewRand(uint64(i)))
		if active(p) != want {
			t.Errorf("execution %d: member %T", i, active(p))
		}
	}
	if _, ok := active(p).(walker); !ok {
		t.Error("the walk's execution does not record a walk's schedule")
	}
	p.Begin(4, NewRand(4))
	if _, ok := active(p).(horizonStayer); !ok {
		t.Error("PCT's execution has no horizon")
	}
	// PCT learns k from the walk's executions too.
	p.Begin(5, NewRand(5))
	p.End(ExecOutcome{Steps: 40, Goroutines: 3})
	if p.pct.k != 40 || p.pct.n != 3 {
		t.Errorf("PCT learned k=%d n=%d, want 40 3", p.pct.k, p.pct.n)
	}
	if got := p.Spec(); got.Name != "portfolio" || got.D != 3 {
		t.Errorf("spec %+v", got)
	}
}

// TestPortfolioFindsAndReplays: the lost update is found by the portfolio
// at a fixed execution, for one PCT and one walk execution (seeds chosen
// so that each member finds it), and both replay.
func TestPortfolioFindsAndReplays(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		exec int
	}{{5, 6}, {9, 1}} {
		b := mustFind(t, "TestProgLostUpdate", "portfolio", c.seed, 200, "fail")
		sched, err := DecodeSchedule(b.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if b.Execution != c.exec || sched.Walk != (c.exec%2 == 1) {
			t.Errorf("seed %d: found at #%d (walk %v), want #%d", c.seed, b.Execution, sched.Walk, c.exec)
		}
	}
	mustPass(t, "TestProgLockedCounter", "portfolio", 300)
}
