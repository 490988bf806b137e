package instrument

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/gopct/gopct/internal/load"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// goldenRules lists the rule directories under testdata; each holds one
// in.go or in_test.go and its expected rewrite out.golden.
var goldenRules = []string{"tests", "gostmt", "chan", "select", "mutex", "syncmisc", "atomic", "time", "tfail", "memory", "maps", "alloc", "locals", "globals", "rand", "maps121", "leave", "goroutines"}

// TestGolden rewrites each rule's input and compares it with out.golden
// (go test ./instrument -update regenerates them).
func TestGolden(t *testing.T) {
	var patterns []string
	for _, r := range goldenRules {
		patterns = append(patterns, "./testdata/"+r)
	}
	cfg := &packages.Config{Mode: load.Mode, Dir: ".", Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.ID, p.Errors)
		}
		for i, f := range p.Syntax {
			path := p.CompiledGoFiles[i]
			base := filepath.Base(path)
			if (base != "in.go" && base != "in_test.go") || done[path] {
				continue
			}
			done[path] = true
			rule := filepath.Base(filepath.Dir(path))
			t.Run(rule, func(t *testing.T) {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				fr := newFileRewriter(p.Fset, f, src, p.TypesInfo, p.Types)
				fr.lineName, fr.names = base, load.NewNamer(p.Fset, testdata, nil)
				fr.rtImport, fr.tables = RuntimeModule, sitesImported(path)
				out, _, err := fr.rewriteFile()
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, sitesSource(fr.sites)...)
				if names := fileGlobals(f); len(names) > 0 {
					out = append(out, "\n// "+globalsFile(strings.HasSuffix(base, "_test.go"), strings.HasSuffix(p.Types.Name(), "_test"))+"\n"...)
					out = append(out, globalsSource(p.Types.Name(), p.PkgPath, RuntimeModule, names)...)
				}
				checkGolden(t, filepath.Join(filepath.Dir(path), "out.golden"), out)
			})
		}
	}
	if len(done) != len(goldenRules) {
		t.Errorf("rewrote %d rule files, want %d", len(done), len(goldenRules))
	}
}

func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./instrument -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs:\n%s", golden, lineDiff(string(want), string(got)))
	}
}

// lineDiff is a minimal line diff: the lines of each side not matched by
// a common prefix and suffix.
func lineDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	j := 0
	for j < len(x)-i && j < len(y)-i && x[len(x)-1-j] == y[len(y)-1-j] {
		j++
	}
	var sb strings.Builder
	for _, l := range x[i : len(x)-j] {
		sb.WriteString("- " + l + "\n")
	}
	for _, l := range y[i : len(y)-j] {
		sb.WriteString("+ " + l + "\n")
	}
	return sb.String()
}

// TestGoldenCompiles builds the golden inputs through Instrument and the
// overlay, so every rewrite rule's output is checked by the compiler.
func TestGoldenCompiles(t *testing.T) {
	var patterns []string
	for _, r := range goldenRules {
		patterns = append(patterns, "./testdata/"+r)
	}
	res, err := Instrument(Config{Dir: ".", Patterns: patterns})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	var libs []string
	for _, p := range patterns {
		if !strings.HasSuffix(p, "/tests") && !strings.HasSuffix(p, "/tfail") {
			libs = append(libs, p)
		}
	}
	if err := res.goCmd(append([]string{"build", "-overlay=" + res.OverlayPath}, libs...)...); err != nil {
		t.Fatal(err)
	}
	// Every test variant (in-package and external test files, with their
	// generated globals files) compiles too.
	out := t.TempDir() + "/"
	if err := res.goCmd(append([]string{"test", "-c", "-vet=off", "-overlay=" + res.OverlayPath, "-o", out}, patterns...)...); err != nil {
		t.Fatal(err)
	}
}

// TestGlobalsFiles checks the generated files registering package-level
// variables: one per directory and kind (package files, in-package test
// files, external test package), each compiled only where its variables
// exist, and the test binary built with them runs.
func TestGlobalsFiles(t *testing.T) {
	res, err := Instrument(Config{Dir: ".", Patterns: []string{"./testdata/globals"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	dir, _ := filepath.Abs("testdata/globals")
	data, err := os.ReadFile(res.OverlayPath)
	if err != nil {
		t.Fatal(err)
	}
	var overlay struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &overlay); err != nil {
		t.Fatal(err)
	}
	const pkg = "github.com/gopct/gopct/instrument/testdata/globals"
	want := map[string][]string{
		"zz_gopct_globals.go":        {"package globals\n", `Global("` + pkg + `.Count", &Count)`, `Global("` + pkg + `.Cache", &Cache)`},
		"zz_gopct_globals_test.go":   {"package globals\n", `Global("` + pkg + `.testOnly", &testOnly)`},
		"zz_gopct_globals_x_test.go": {"package globals_test\n", `Global("` + pkg + `_test.external", &external)`},
	}
	for name, parts := range want {
		dst, ok := overlay.Replace[filepath.Join(dir, name)]
		if !ok {
			t.Errorf("%s not in the overlay", name)
			continue
		}
		got, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if !strings.Contains(string(got), p) {
				t.Errorf("%s lacks %q:\n%s", name, p, got)
			}
		}
		if strings.Contains(string(got), "&_)") {
			t.Errorf("%s registers a blank variable:\n%s", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "zz_gopct_globals.go")); err == nil {
		t.Errorf("generated file written into the user's tree")
	}
	bin := filepath.Join(t.TempDir(), "globals.test")
	if err := res.Build("./testdata/globals", bin); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-test.count=1").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
