package campaign

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gopct/gopct/pct"
)

func TestCrashIsReportedAndReplayed(t *testing.T) {
	bin, err := Build(filepath.Join("testdata", "mod", "crash"), ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	p := Plan{Spec: pct.Spec{Name: "pct", D: 3}, Iters: 200, Seed: 1, Workers: 1, MaxSteps: 1 << 20, Stall: 20 * time.Second}
	s, err := bin.Hunt(p, "TestLogFatal")
	if err != nil {
		t.Fatal(err)
	}
	if s.Bug == nil {
		t.Fatalf("no bug found in %d executions", s.Executions)
	}
	if s.Bug.Kind != "fatal" || !strings.Contains(s.Bug.Message, "lost update: n = 1") {
		t.Fatalf("bug %s: %q", s.Bug.Kind, s.Bug.Message)
	}
	tok, err := DecodeToken(s.Bug.Replay)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		r, err := bin.Replay(tok)
		if err != nil {
			t.Fatal(err)
		}
		if r.Diverged != "" || r.Bug == nil || r.Bug.Kind != "fatal" {
			t.Fatalf("replay %d: diverged %q, bug %+v", i, r.Diverged, r.Bug)
		}
	}
}

func TestTokenRoundTrip(t *testing.T) {
	tok := Token{Package: "example.com/p", Test: "TestX", Schedule: "AQI", Execution: 7, Kind: "fail", Message: "m", Deps: []string{"golang.org/x/sync"}, Vars: []string{"example.com/p.x"}}
	got, err := DecodeToken(tok.Encode())
	if err != nil || !reflect.DeepEqual(got, tok) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if _, err := DecodeToken("gopct1.!!!"); err == nil {
		t.Fatal("corrupt token accepted")
	}
}

func TestBuildCacheReusesBinary(t *testing.T) {
	t.Setenv("GOPCT_CACHE", t.TempDir())
	dir := filepath.Join("testdata", "mod", "crash")
	for i := 0; i < 2; i++ {
		bin, err := Build(dir, ".", nil)
		if err != nil {
			t.Fatal(err)
		}
		bin.Close()
	}
	bins, _ := filepath.Glob(filepath.Join(os.Getenv("GOPCT_CACHE"), "*.test"))
	tables, _ := filepath.Glob(filepath.Join(os.Getenv("GOPCT_CACHE"), "*.vars.json"))
	if len(bins) != 1 || len(tables) != 1 {
		t.Fatalf("cache holds %d binaries and %d site→variable tables after two identical builds, want 1 and 1", len(bins), len(tables))
	}
}
