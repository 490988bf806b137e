package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopct/gopct/results"
)

// exampleCase is one entry of examples/cases.json.
type exampleCase struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Buggy   bool   `json:"buggy"`
}

// exampleOutcome is what "gopct hunt -seed 1 -workers 1" reports for a buggy
// example: the kind of failure and the index of the execution that found it.
// With one worker and a fixed seed the scheduler is deterministic, so these
// are exact: a change in the scheduler, the strategies or the instrumenter
// that changes them must be noticed (and this table updated on purpose).
type exampleOutcome struct {
	kind      string
	execution int
	flags     []string // extra hunt flags, where the defaults do not reach the bug
}

// Observed with: gopct hunt -seed 1 -workers 1 -iters 1000 -race=false [flags] -json examples/PKG
var wantExamples = map[string]exampleOutcome{
	"abba":           {"deadlock", 3, nil},
	"doublelock":     {"deadlock", 1, nil},
	"fatalgoroutine": {"fail", 3, nil},
	"isstafig1":      {"fail", 1, nil},
	"isstafig10":     {"fail", 224, []string{"-d", "4"}}, // PCT depth 4: t1<a++<t2 and t3<b++<t4
	"isstafig2":      {"fail", 3, nil},
	"isstafig3":      {"fail", 29, nil},
	"isstafig4":      {"fail", 42, nil},
	"isstafig8":      {"fail", 0, nil},
	"isstafig9":      {"fail", 35, nil},
	"lostupdate":     {"fail", 20, nil},
	"mapwrites":      {"fatal", 3, nil},
	"rwr":            {"deadlock", 11, nil},
	"selectorder":    {"fail", 3, nil},
	"sendclosed":     {"panic", 1, nil},
	"timeoutleak":    {"leak", 1, nil},
	"useinit":        {"fail", 0, nil},
	"wgaddinside":    {"fail", 3, nil},
}

const (
	buggyIters        = 1000 // every example bug must be found within 1,000 executions
	correctIters      = 300  // every correct example must run 300 executions clean
	correctItersLong  = 2000 // the same with GOPCT_LONG=1 (docs/EXAMPLES.md reports 2,000)
	correctItersShort = 100  // the same with -short
)

// TestExamples hunts every package of the examples module (one build per
// package) and checks the exact outcome for seed 1 and one worker.
func TestExamples(t *testing.T) {
	t.Parallel() // alongside TestScripts: both mostly wait for builds
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []exampleCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	if len(cases) == 0 {
		t.Fatal("cases.json lists no case")
	}

	// Every package of the module is in cases.json, and the table above
	// has an entry for exactly the buggy cases.
	listed := map[string]bool{}
	for _, c := range cases {
		listed[c.Package] = true
		if _, ok := wantExamples[c.Package]; ok != c.Buggy {
			t.Errorf("%s: buggy is %v in cases.json, but wantExamples has an entry: %v", c.Package, c.Buggy, ok)
		}
	}
	for pkg := range wantExamples {
		if !listed[pkg] {
			t.Errorf("wantExamples has %s, which cases.json does not list", pkg)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !listed[e.Name()] {
			t.Errorf("examples/%s is not in cases.json", e.Name())
		}
	}

	iters := correctIters
	if os.Getenv("GOPCT_LONG") == "1" {
		iters = correctItersLong
	}
	if testing.Short() {
		iters = correctItersShort
	}
	for _, c := range cases {
		t.Run(c.Package, func(t *testing.T) {
			t.Parallel()
			n := iters
			if c.Buggy {
				n = buggyIters
			}
			// Buggy examples pin the exploration itself (the execution
			// that exposes the failure), so race detection, which reports a
			// data race in the first execution that has one, is off there;
			// TestExamplesRaces checks it. Correct examples run with it on:
			// no false race report either.
			race := strconv.FormatBool(!c.Buggy)
			args := []string{"hunt", "-seed", "1", "-workers", "1", "-iters", strconv.Itoa(n), "-race=" + race}
			args = append(args, wantExamples[c.Package].flags...)
			var stdout, stderr bytes.Buffer
			code := run(append(args, "-run", "^"+c.Test+"$", "-json", filepath.Join(dir, c.Package)), &stdout, &stderr)
			if stderr.Len() > 0 {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			var s results.Summary
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
				t.Fatalf("exit %d, last line of stdout is not a summary: %v\n%s", code, err, stdout.String())
			}
			if s.Test != c.Test {
				t.Errorf("summary of test %q, want %q", s.Test, c.Test)
			}
			if want := "github.com/gopct/gopct/examples/" + c.Package; s.Package != want {
				t.Errorf("package %q, want %q", s.Package, want)
			}
			if s.Strategy != "pct" || s.Seed != 1 {
				t.Errorf("strategy %q seed %d, want pct and 1", s.Strategy, s.Seed)
			}

			if !c.Buggy {
				if code != 0 || s.Bug != nil {
					t.Fatalf("exit %d, want 0 (no bug); bug: %+v", code, s.Bug)
				}
				if s.Executions != n {
					t.Errorf("%d executions, want %d", s.Executions, n)
				}
				return
			}

			want := wantExamples[c.Package]
			if code != 1 || s.Bug == nil {
				t.Fatalf("exit %d, want 1 (bug found); executions %d", code, s.Executions)
			}
			b := s.Bug
			if string(b.Kind) != want.kind || b.Execution != want.execution {
				t.Errorf("found %s in execution %d, want %s in execution %d (message: %s)",
					b.Kind, b.Execution, want.kind, want.execution, b.Message)
			}
			// One worker stops at the first bug.
			if s.Executions != b.Execution+1 {
				t.Errorf("%d executions for a bug in execution %d, want %d", s.Executions, b.Execution, b.Execution+1)
			}
			if b.Message == "" || !strings.HasPrefix(b.Replay, "gopct1.") || len(b.Trace) == 0 && b.Preemptions > 0 {
				t.Errorf("incomplete report: message %q, replay %q, %d preemptions, %d trace events",
					b.Message, b.Replay, b.Preemptions, len(b.Trace))
			}
		})
	}
}

// racyExamples are the examples whose bug is (or comes with) a data race:
// with race detection on (the default), the first execution reports it.
// (isstafig8 is racy too, but its c = 0 bug fails that first execution.)
var racyExamples = map[string]string{
	"isstafig1": "TestFigure1", "isstafig2": "TestFigure2", "isstafig3": "TestFigure3", "isstafig4": "TestFigure4",
	"isstafig9": "TestFigure9", "isstafig10": "TestFigure10", "lostupdate": "TestCounter", "mapwrites": "TestCountWords",
}

// TestExamplesRaces: every racy example is reported as a race in its first
// execution, with both accesses named.
func TestExamplesRaces(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for pkg, test := range racyExamples {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run([]string{"hunt", "-seed", "1", "-workers", "1", "-iters", "10", "-run", "^" + test + "$",
				"-json", filepath.Join(dir, pkg)}, &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			var s results.Summary
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil || code != 1 || s.Bug == nil {
				t.Fatalf("exit %d, %v:\n%s%s", code, err, stdout.String(), stderr.String())
			}
			if s.Bug.Kind != "race" || s.Bug.Execution != 0 || !strings.Contains(s.Bug.Message, "unordered with the") {
				t.Errorf("found %s in execution %d (%s), want a race in execution 0", s.Bug.Kind, s.Bug.Execution, s.Bug.Message)
			}
		})
	}
}
