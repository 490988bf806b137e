package pct

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The memory gate: activating the memory sites of some variables keeps
// every synchronisation point and exactly the accesses that may touch
// those variables.

func TestDecodeSiteVars(t *testing.T) {
	got := decodeSiteVars([]int32{-1, 0, 2, 1, 0}, 3, 2)
	want := [][]int32{nil, {}, {1, 0}}
	if !reflect.DeepEqual(got, want) || got[1] == nil {
		t.Errorf("decode = %#v, want %#v (site 1 known to touch nothing)", got, want)
	}
	for _, bad := range []struct {
		enc         []int32
		sites, vars int
	}{
		{[]int32{2, 0}, 1, 1},    // truncated
		{[]int32{1, 5}, 1, 2},    // unknown variable id
		{[]int32{-1, -1}, 3, 1},  // too few sites
		{[]int32{0, 0, 0}, 2, 1}, // too many sites
		{[]int32{1, -3}, 1, 1},   // negative id
	} {
		if got := decodeSiteVars(bad.enc, bad.sites, bad.vars); got != nil {
			t.Errorf("decode(%v) = %v, want nil (every site unknown)", bad.enc, got)
		}
	}
}

// gateTable is the harness's site table followed by sites of variables
// y (id 1) and m (id 2) and a memory site the analysis did not see. The
// harness's sR and sW access x (id 0).
var (
	gateSites    struct{ yR, yW, mW, unseen int }
	harnessSites []SiteInfo // the harness's table, before the first install
)

func installGateTable() {
	if harnessSites == nil {
		harnessSites = siteTable
	}
	n := len(harnessSites)
	gateSites.yR, gateSites.yW, gateSites.mW, gateSites.unseen = n, n+1, n+2, n+3
	sites := append(slices.Clip(harnessSites),
		SiteInfo{Pos: "gate.go:1:1", Kind: KindRead, Expr: "y"},
		SiteInfo{Pos: "gate.go:2:1", Kind: KindWrite, Expr: "y"},
		SiteInfo{Pos: "gate.go:3:1", Kind: KindMapWrite, Expr: "m"},
		SiteInfo{Pos: "gate.go:4:1", Kind: KindRead, Expr: "z"},
	)
	var enc []int32
	for i := range sites {
		switch i {
		case sR, sW:
			enc = append(enc, 1, 0)
		case gateSites.yR, gateSites.yW:
			enc = append(enc, 1, 1)
		case gateSites.mW:
			enc = append(enc, 1, 2)
		case sLock, sUnlock:
			enc = append(enc, 0) // the mutex is no variable of Q
		default:
			enc = append(enc, -1)
		}
	}
	RegisterSites(sites)
	RegisterSiteVars([]VarInfo{{Name: "x"}, {Name: "y"}, {Name: "m"}}, enc)
}

func TestActivateMemory(t *testing.T) {
	defer func() { RegisterSiteVars(nil, nil); RegisterSites(harnessSites) }()
	installGateTable()
	memory := []int{sR, sW, sMap, gateSites.yR, gateSites.yW, gateSites.mW, gateSites.unseen}
	for _, c := range []struct {
		sites, vars []int
		on          []int
	}{
		{nil, nil, memory},
		{nil, []int{1}, []int{sMap, gateSites.yR, gateSites.yW, gateSites.unseen}},
		{nil, []int{}, []int{sMap, gateSites.unseen}}, // sMap and the unseen site are unknown
		{[]int{sR}, []int{2}, []int{sR, sMap, gateSites.mW, gateSites.unseen}},
	} {
		activateMemory(c.sites, c.vars)
		var on []int
		for _, s := range memory {
			if memoryOn(s) {
				on = append(on, s)
			}
		}
		if !slices.Equal(on, c.on) {
			t.Errorf("sites %v vars %v: memory sites on %v, want %v", c.sites, c.vars, on, c.on)
		}
	}
}

// pointLog is a strategy that never preempts and writes the site of every
// scheduling point, one execution per line, to GOPCT_TEST_POINTS: the
// schedule is the same whatever the gate lets through, so the sequences
// of two runs differ exactly by the points the gate removed.
type pointLog struct{ sites []string }

func init() {
	strategies["pointlog"] = func(Spec) (Strategy, error) { return &pointLog{}, nil }
}

func (*pointLog) Begin(int, *Rand) bool   { return true }
func (*pointLog) Pick(*Decision, int) int { return 0 }
func (*pointLog) Spec() Spec              { return Spec{Name: "pointlog"} }
func (l *pointLog) Next(d *Decision) int {
	if d.CurRuns {
		l.sites = append(l.sites, siteOp(d.Access.Site))
		return d.IndexOf(d.Cur)
	}
	if len(d.Choices) == 0 {
		return PassTime
	}
	return 0
}

func (l *pointLog) End(ExecOutcome) {
	f, err := os.OpenFile(os.Getenv("GOPCT_TEST_POINTS"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err == nil {
		fmt.Fprintln(f, strings.Join(l.sites, ";"))
		f.Close()
	}
	l.sites = nil
}

// TestProgGate uses every kind of operation once or twice: memory of x, y,
// m and of a site the analysis did not see, and sync operations.
func TestProgGate(t *testing.T) {
	skipNative(t)
	installGateTable()
	RunTest(t, func(t *testing.T) {
		var x, y, z int
		m := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		var flag atomic.Bool
		ch := make(chan int, 1)
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			Lock(sLock, &mu)
			Store(sW, &x, Load(sR, &x)+1)
			Store(gateSites.yW, &y, Load(gateSites.yR, &y)+1)
			Unlock(sUnlock, &mu)
			MapStore(gateSites.mW, m, 1, 1)
			Send(sSend, ch, 1)
			WGDone(sWG, &wg)
		})
		Recv(sRecv, ch)
		Select(sSelect, 1, true, func(int) bool { return false }, nil, nil)
		WGWait(sWG, &wg)
		_ = Seq(Point(sLoad), flag.Load())
		_ = Load(gateSites.unseen, &z) + Load(sR, &x)
	})
}

// TestGateKeepsSyncPoints runs TestProgGate with all memory sites, with
// the sites of y, and with no variable: the scheduling points are the
// full sequence minus exactly the memory sites of the other variables.
func TestGateKeepsSyncPoints(t *testing.T) {
	run := func(vars []int) []string {
		path := filepath.Join(t.TempDir(), "points.txt")
		t.Setenv("GOPCT_TEST_POINTS", path)
		recs := campaign(t, "TestProgGate", Config{Spec: Spec{Name: "pointlog"}, Seed: 1, Iters: 1, Vars: vars})
		if done := recs[len(recs)-1]; done.Type != RecDone || done.Executions != 1 {
			t.Fatalf("vars %v: %+v", vars, done)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(data)), ";")
	}
	all := run(nil)
	// g0 adds, starts g1 and blocks in the receive; g1 runs to its send;
	// the second map write point is the write in progress (maps.go); the
	// harness names WaitGroup.Wait's site WaitGroup.Add too.
	if want := "WaitGroup.Add;go;receive;lock;read x;write x;read y;write y;unlock;map write m;map write m;send;" +
		"WaitGroup.Add;select;WaitGroup.Add;atomic load flag.Load();read z;read x"; strings.Join(all, ";") != want {
		t.Errorf("all memory sites: points\n %s\nwant\n %s", strings.Join(all, ";"), want)
	}
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(drop, s) })
	}
	if got, want := run([]int{1}), without("read x", "write x", "map write m"); !slices.Equal(got, want) {
		t.Errorf("vars [y]: points\n %v\nwant\n %v\n(all: %v)", got, want, all)
	}
	if got, want := run([]int{}), without("read x", "write x", "read y", "write y", "map write m"); !slices.Equal(got, want) {
		t.Errorf("no vars: points\n %v\nwant\n %v", got, want)
	}
	for _, sync := range []string{"lock", "unlock", "send", "receive", "select", "atomic load flag.Load()", "go", "WaitGroup.Add"} {
		if !slices.Contains(all, sync) {
			t.Errorf("the program has no %s point: %v", sync, all)
		}
	}
}
