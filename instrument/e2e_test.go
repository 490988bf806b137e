package instrument

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopct/gopct/pct"
)

// hashTree returns a digest of every file under dir (names and contents).
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s %d\n", path, len(data))
		h.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestEndToEnd instruments testdata/mod, builds the test binary through the
// overlay, runs it (the runtime behaves natively outside gopct), and checks
// that the user's tree is untouched.
func TestEndToEnd(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mod")
	before := hashTree(t, dir)
	res, err := Instrument(Config{Dir: dir, Patterns: []string{"./lib"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if want := []string{"example.com/mod/lib", "example.com/mod/lib_test", "example.com/mod/util"}; fmt.Sprint(res.Packages) != fmt.Sprint(want) {
		t.Errorf("packages = %v, want %v", res.Packages, want)
	}
	if len(res.Files) != 6 {
		t.Errorf("rewrote %d files, want 6: %v", len(res.Files), res.Files)
	}
	checkSites(t, res)
	bin := filepath.Join(t.TempDir(), "lib.test")
	if err := res.Build("./lib", bin); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-test.v", "-test.count=1").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nPASS") {
		t.Fatalf("test binary failed: %v\n%s", err, out)
	}
	for _, name := range []string{"TestBank", "TestStack", "TestPipeline", "TestShared", "TestTimeout", "TestOnceCond", "TestUtil", "TestProfile", "TestExtProfile"} {
		if !strings.Contains(string(out), "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
	t.Run("PanicLine", func(t *testing.T) { checkPanicLine(t, bin, filepath.Join(dir, "util", "util.go")) })
	t.Run("Profile", func(t *testing.T) { checkProfile(t, bin, dir) })
	if after := hashTree(t, dir); after != before {
		t.Errorf("user tree changed")
	}
}

// checkSites checks the site table: dense, positions relative to the
// module root, every kind set.
func checkSites(t *testing.T, res *Result) {
	if len(res.Sites) < 50 {
		t.Errorf("only %d sites", len(res.Sites))
	}
	for i, s := range res.Sites {
		if s.Kind == 0 || s.Expr == "" || !(strings.HasPrefix(s.Pos, "lib/") || strings.HasPrefix(s.Pos, "util/")) {
			t.Errorf("site %d = %+v", i, s)
		}
	}
}

// checkPanicLine runs the crashing test and expects the stack trace to
// name the original line of the panicking statement.
func checkPanicLine(t *testing.T, bin, src string) {
	line := 0
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "CRASH LINE") {
			line = n
		}
	}
	f.Close()
	cmd := exec.Command(bin, "-test.run", "TestCrash")
	cmd.Env = append(os.Environ(), "GOPCT_TEST_CRASH=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("crash test passed:\n%s", out)
	}
	if want := fmt.Sprintf("%s:%d", src, line); !strings.Contains(string(out), want) {
		t.Errorf("stack trace does not name %s:\n%s", want, out)
	}
}

func TestErrors(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		dir    string
		reason Reason
		want   string
	}{
		{"testdata/errors/typeerr", TypeErrors, "bad.go:4:9"},
		{outside, NotInModule, "go.mod"},
		{"testdata/errors/cgo", CgoUnsupported, "cgo is not supported"},
	}
	for _, c := range cases {
		_, err := Instrument(Config{Dir: c.dir, Patterns: []string{"./..."}})
		var ue *UserError
		if !errors.Is(err, ErrUser) || !errors.As(err, &ue) || ue.Reason != c.reason || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a UserError %d containing %q", c.dir, err, c.reason, c.want)
		}
	}
}

// profileRun runs test in bin as a profiling campaign of a few executions
// and returns the observations of its summary record.
func profileRun(t *testing.T, bin, test string) []pct.Observation {
	t.Helper()
	tmp := t.TempDir()
	cfg := pct.Config{Version: pct.SchemaVersion, Test: test, Spec: pct.Spec{Name: "random"}, Seed: 1, Iters: 3, Workers: 1, Stall: 30,
		Out: filepath.Join(tmp, "out.jsonl"), Profile: true}
	data, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(tmp, "cfg.json")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOPCT_CONFIG="+cfgPath)
	out, _ := cmd.CombinedOutput()
	lines, err := os.ReadFile(cfg.Out)
	if err != nil {
		t.Fatalf("%s: %v\n%s", test, err, out)
	}
	var last pct.Record
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		if err := json.Unmarshal([]byte(l), &last); err != nil {
			t.Fatal(err)
		}
	}
	if last.Type != "done" {
		t.Fatalf("%s: last record %+v\n%s", test, last, out)
	}
	return last.Profile
}

// markers returns, for each /*@name*/ comment in file, the position
// "rel:line:col" of the first non-blank character after it.
func markers(t *testing.T, file, rel string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for n, line := range strings.Split(string(data), "\n") {
		for rest, col := line, 0; ; {
			i := strings.Index(rest, "/*@")
			if i < 0 {
				break
			}
			j := strings.Index(rest[i:], "*/")
			name := rest[i+3 : i+j]
			k := i + j + 2
			for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t') {
				k++
			}
			out[name] = fmt.Sprintf("%s:%d:%d", rel, n+1, col+k+1)
			col += k
			rest = rest[k:]
		}
	}
	return out
}

// checkProfile runs the profiling tests and checks that the runtime names
// the variables as the alias analysis does: globals "importpath.Name",
// allocations and escaping locals by their source position.
func checkProfile(t *testing.T, bin, dir string) {
	vars := map[string]bool{}
	for _, test := range []string{"TestProfile", "TestExtProfile"} {
		for _, o := range profileRun(t, bin, test) {
			if o.Site != "" {
				vars[o.Var] = true
			}
		}
	}
	want := []string{"example.com/mod/lib.global", "example.com/mod/lib.Boxes",
		"example.com/mod/lib.testHits", "example.com/mod/lib_test.extHits"}
	marks := markers(t, filepath.Join(dir, "lib", "profile.go"), "lib/profile.go")
	if len(marks) != 9 {
		t.Errorf("markers = %v, want 9", marks)
	}
	for _, pos := range marks {
		want = append(want, pos)
	}
	for _, w := range want {
		if !vars[w] {
			t.Errorf("no site observed touching %s; observed %v", w, sortedKeys(vars))
		}
	}
}
