package pct

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The programs under test are written as instrumented code would be (direct
// calls to the runtime API). Each is a TestProg* function that only runs
// when the parent test re-executes this test binary with GOPCT_CONFIG set, so
// that a plain `go test` never runs buggy code natively.

const (
	sR = iota
	sW
	sGo
	sWG
	sLock
	sUnlock
	sSend
	sRecv
	sSelect
	sFail
	sMap
	sSleep
	sOther
	sAlloc
	sLoad
	sR2
	sW2
	sAtomic
	sWGWait
)

func init() {
	RegisterSites([]SiteInfo{
		sR:      {Pos: "prog.go:1:1", Kind: KindRead, Expr: "x"},
		sW:      {Pos: "prog.go:2:1", Kind: KindWrite, Expr: "x"},
		sGo:     {Pos: "prog.go:3:1", Kind: KindGo},
		sWG:     {Pos: "prog.go:4:1", Kind: KindWGAdd},
		sLock:   {Pos: "prog.go:5:1", Kind: KindLock},
		sUnlock: {Pos: "prog.go:6:1", Kind: KindUnlock},
		sSend:   {Pos: "prog.go:7:1", Kind: KindSend},
		sRecv:   {Pos: "prog.go:8:1", Kind: KindRecv},
		sSelect: {Pos: "prog.go:9:1", Kind: KindSelect},
		sFail:   {Pos: "prog.go:10:1", Kind: KindTestFail},
		sMap:    {Pos: "prog.go:11:1", Kind: KindMapWrite},
		sSleep:  {Pos: "prog.go:12:1", Kind: KindSleep},
		sOther:  {Pos: "prog.go:13:1", Kind: KindOther},
		sAlloc:  {Pos: "prog.go:14:5", Kind: KindAlloc},
		sLoad:   {Pos: "prog.go:15:1", Kind: KindAtomicLoad, Expr: "flag.Load()"},
		sR2:     {Pos: "prog.go:16:1", Kind: KindRead, Expr: "y"},
		sW2:     {Pos: "prog.go:17:1", Kind: KindWrite, Expr: "y"},
		sAtomic: {Pos: "prog.go:18:1", Kind: KindAtomic, Expr: "atomic.AddInt64(&a, 1)"},
		sWGWait: {Pos: "prog.go:19:1", Kind: KindWGWait, Expr: "wg.Wait()"},
	})
	Global("example.com/prog.counter", &counter)
}

// skipNative keeps the programs from running outside a controlled run.
func skipNative(t *testing.T) {
	if c, _ := loadConfig(); c == nil {
		t.Skip("runs only under gopct control")
	}
}

// campaign re-executes the test binary to run program prog under cfg and
// returns the records it wrote.
func campaign(t *testing.T, prog string, cfg Config) []Record {
	t.Helper()
	return campaignTB(t, prog, cfg)
}

func campaignTB(t testing.TB, prog string, cfg Config) []Record {
	t.Helper()
	recs, _ := campaignCPU(t, prog, cfg)
	return recs
}

// campaignCPU is campaignTB that also returns the CPU time (user and
// system) the worker process used: benchmarks compare it, as the wall time
// of a loaded machine is mostly other processes'.
func campaignCPU(t testing.TB, prog string, cfg Config) ([]Record, time.Duration) {
	t.Helper()
	dir := t.TempDir()
	cfg.Version = SchemaVersion
	cfg.Test = prog
	cfg.Out = filepath.Join(dir, "out.jsonl")
	if cfg.Workers == 0 {
		cfg.Workers = 1
	}
	if cfg.Stall == 0 {
		cfg.Stall = 30
	}
	b, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+prog+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOPCT_CONFIG="+cfgPath)
	outb, _ := cmd.CombinedOutput()
	recs := readRecords(t, cfg.Out)
	if len(recs) == 0 || (recs[len(recs)-1].Type != "done" && recs[len(recs)-1].Type != "error") {
		t.Fatalf("%s: no summary record; output:\n%s", prog, tail(string(outb), 3000))
	}
	return recs, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func readRecords(t testing.TB, path string) []Record {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var recs []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("bad record %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// hunt runs a campaign and returns the bug found, or nil.
func hunt(t *testing.T, prog, strategy string, seed uint64, iters int) (*BugReport, Record) {
	t.Helper()
	return huntWith(t, prog, Config{Spec: testSpec(strategy), Seed: seed, Iters: iters})
}

// huntWith is hunt under cfg: the first bug found, or nil, and the
// summary record.
func huntWith(t *testing.T, prog string, cfg Config) (*BugReport, Record) {
	t.Helper()
	recs := campaign(t, prog, cfg)
	for _, r := range recs {
		if r.Type == RecBug {
			return r.Bug, recs[len(recs)-1]
		}
	}
	return nil, recs[len(recs)-1]
}

// replayBug replays a bug's schedule and returns the summary record.
func replayBug(t *testing.T, prog string, b *BugReport) Record {
	t.Helper()
	return replayUnder(t, prog, Config{}, b)
}

// replayUnder replays b under the gates and limits of the hunt's cfg that
// found it: its active sites, step limit, loop bound and object gate.
func replayUnder(t *testing.T, prog string, cfg Config, b *BugReport) Record {
	t.Helper()
	recs := campaign(t, prog, Config{Spec: testSpec("replay"), Replay: b.Schedule, First: b.Execution, Iters: b.Execution + 1,
		Sites: cfg.Sites, MaxSteps: cfg.MaxSteps, Loop: cfg.Loop, Objects: cfg.Objects})
	return recs[len(recs)-1]
}

func mustFind(t *testing.T, prog, strategy string, seed uint64, iters int, kind string) *BugReport {
	t.Helper()
	b, done := hunt(t, prog, strategy, seed, iters)
	if b == nil {
		t.Fatalf("%s/%s: no bug in %d executions", prog, strategy, done.Executions)
	}
	if string(b.Kind) != kind {
		t.Fatalf("%s/%s: kind %s (%s), want %s", prog, strategy, b.Kind, b.Message, kind)
	}
	r := replayBug(t, prog, b)
	if r.Diverged != "" {
		t.Fatalf("%s: replay diverged: %s", prog, r.Diverged)
	}
	if r.Outcome == nil || string(r.Outcome.Kind) != kind || r.Outcome.Message != b.Message {
		t.Fatalf("%s: replay outcome %+v, want %s %q", prog, r.Outcome, kind, b.Message)
	}
	return b
}

func mustPass(t *testing.T, prog, strategy string, iters int) {
	t.Helper()
	b, done := hunt(t, prog, strategy, 1, iters)
	if b != nil {
		t.Fatalf("%s/%s: false report %s: %s\n%+v", prog, strategy, b.Kind, b.Message, b.Trace)
	}
	if done.Executions != iters {
		t.Fatalf("%s: ran %d executions, want %d", prog, done.Executions, iters)
	}
}

func hasSwitchAt(b *BugReport, pos string) bool {
	for _, ev := range b.Trace {
		if strings.Contains(ev.At, pos) {
			return true
		}
	}
	return false
}

// testSpec is the spec the tests use for a strategy name: PCT with d=3
// (the portfolio's PCT too).
func testSpec(name string) Spec {
	if name == "pct" || name == "portfolio" {
		return Spec{Name: name, D: 3}
	}
	return Spec{Name: name}
}
