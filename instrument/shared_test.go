package instrument

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRebuildKeepsCompiledDirs: two builds of a module whose test file was
// edited share what the go command's build cache keys on (sharedDir): the
// dependency's copy, the runtime and, when the edit moves no site, the
// tables; and the code under test and the dependency are rewritten the
// same (their site ids come before the tests', although m_test.go sorts
// before n.go), so that a rebuild compiles only the tests' package.
func TestRebuildKeepsCompiledDirs(t *testing.T) {
	root := t.TempDir()
	modcache := filepath.Join(root, "modcache")
	t.Setenv("GOMODCACHE", modcache) // inModCache: the dependency is copied
	depDir := filepath.Join(modcache, "example.com", "dep@v1.0.0")
	writeTree(t, depDir, map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.24\n",
		"dep.go": "package dep\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\n// Go runs f on a goroutine of its own.\nfunc Go(f func()) {\n\tmu.Lock()\n\tgo f()\n\tmu.Unlock()\n}\n",
	})
	dir := filepath.Join(root, "m")
	test := "package m\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dep\"\n)\n\nfunc TestInc(t *testing.T) {\n\t%s\n\tdone := make(chan int)\n\tdep.Go(func() { n := 0; Inc(&n); done <- n })\n\t<-done\n}\n"
	writeTree(t, dir, map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.24\n\nrequire example.com/dep v1.0.0\n\nreplace example.com/dep => " + depDir + "\n",
		"n.go":      "package m\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\n// Inc adds one to *n under mu.\nfunc Inc(n *int) {\n\tmu.Lock()\n\t*n++\n\tmu.Unlock()\n}\n",
		"m_test.go": strings.Replace(test, "%s", "// first", 1),
	})
	cache := filepath.Join(root, "cache")
	build := func(testLine string) *Result {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "m_test.go"), []byte(strings.Replace(test, "%s", testLine, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Instrument(Config{Dir: dir, Patterns: []string{"."}, Deps: []string{"example.com/dep"}, RuntimeCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Cleanup() })
		return res
	}
	first := build("// first")
	moved := build("mu.Lock(); mu.Unlock() // two sites more, before the test's own")
	comment := build("// an edit that moves no site")

	for _, f := range []string{filepath.Join(dir, "n.go"), filepath.Join(depDir, "dep.go")} {
		if a, b := readRewritten(t, first, f), readRewritten(t, moved, f); a != b {
			t.Errorf("%s is rewritten differently after an edit of the test file:\n%s\n----\n%s", f, a, b)
		} else if strings.Contains(a, SitesModule) {
			t.Errorf("%s imports the sites module; only test files should:\n%s", f, a)
		}
	}
	if !strings.Contains(readRewritten(t, first, filepath.Join(dir, "m_test.go")), SitesModule) {
		t.Errorf("the test file does not import the sites module")
	}
	if len(first.deps) != 1 || first.deps[0].copy != moved.deps[0].copy || !strings.HasPrefix(first.deps[0].copy, cache) {
		t.Errorf("dependency copies %q and %q: want one shared directory under %s", first.deps[0].copy, moved.deps[0].copy, cache)
	}
	if first.RuntimeDir != moved.RuntimeDir {
		t.Errorf("runtime directories differ: %s, %s", first.RuntimeDir, moved.RuntimeDir)
	}
	if first.SitesDir == moved.SitesDir {
		t.Errorf("two site tables share the directory %s", first.SitesDir)
	}
	if comment.SitesDir != first.SitesDir {
		t.Errorf("an edit that moves no site changed the tables' directory: %s, %s", first.SitesDir, comment.SitesDir)
	}
	// The site→variable table of one build never lands in the shared
	// directory: it is overlaid.
	if err := comment.WriteSiteVars(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(comment.SitesDir, siteVarsFile)); err == nil {
		t.Errorf("WriteSiteVars wrote into the shared %s", comment.SitesDir)
	}
	overlay, err := os.ReadFile(comment.OverlayPath)
	if err != nil || !strings.Contains(string(overlay), comment.SiteVarsFile) {
		t.Errorf("the overlay does not add %s (%v):\n%s", comment.SiteVarsFile, err, overlay)
	}
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
}

// readRewritten returns the instrumented text of the original file path.
func readRewritten(t *testing.T, res *Result, path string) string {
	t.Helper()
	dst, ok := res.Files[path]
	if !ok {
		t.Fatalf("%s was not rewritten (%v)", path, res.Files)
	}
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestInputsCoverLocalModules: the files of modules outside the module
// cache are build inputs, instrumented or not (a module replaced by a local
// directory, the other modules of a workspace), with their go.mod, and so
// are go.work and go.work.sum: a change to any of them must not be served
// a cached binary.
func TestInputsCoverLocalModules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, filepath.Join(root, "lib"), map[string]string{
		"go.mod": "module example.com/lib\n\ngo 1.24\n",
		"lib.go": "package lib\n\n// Want is what the test wants.\nconst Want = 2\n",
	})
	test := "package m\n\nimport (\n\t\"testing\"\n\n\t\"example.com/lib\"\n)\n\nfunc TestWant(t *testing.T) {\n\tif lib.Want != 2 {\n\t\tt.Fatal(lib.Want)\n\t}\n}\n"
	writeTree(t, filepath.Join(root, "m"), map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.24\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"m_test.go": test,
	})
	writeTree(t, filepath.Join(root, "w"), map[string]string{
		"go.mod":    "module example.com/w\n\ngo 1.24\n",
		"w_test.go": strings.Replace(test, "package m", "package w", 1),
	})
	if err := os.WriteFile(filepath.Join(root, "go.work"), []byte("go 1.24\n\nuse (\n\t./lib\n\t./w\n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, gowork string
		want        []string
	}{
		{"m", "off", []string{"lib/lib.go", "lib/go.mod", "m/go.mod", "m/m_test.go"}},
		{"w", filepath.Join(root, "go.work"), []string{"lib/lib.go", "lib/go.mod", "w/go.mod", "go.work"}},
	} {
		t.Setenv("GOWORK", c.gowork)
		res, err := Instrument(Config{Dir: filepath.Join(root, c.dir), Patterns: []string{"."}})
		if err != nil {
			t.Fatal(err)
		}
		res.Cleanup()
		for _, w := range c.want {
			if !slices.Contains(res.Inputs, filepath.Join(root, w)) {
				t.Errorf("%s: %s is not an input: %v", c.dir, w, res.Inputs)
			}
		}
	}
}
