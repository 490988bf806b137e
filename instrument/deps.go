package instrument

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/gopct/gopct/internal/load"
)

// Dependency modules. Goroutines started in code gopct does not instrument
// run unmanaged (errgroup.Group.Go, for example). Config.Deps names modules
// to instrument as well. The go command refuses overlays of files in the
// module cache, so each such module is copied (into a directory builds
// share, see copyModules) and the overlaid go.mod replaces the module by
// the copy; the copy's files are then overlaid like the main module's. A
// module that the user already replaces by a local directory, and the
// other modules of a go.work workspace, are overlaid in place.

// depModule is one dependency module being instrumented.
type depModule struct {
	path, version string
	dir           string // where the go command reads it (the module cache)
	copy          string // our copy ("" when the user's replace is a local directory)
}

// depModules returns the dependency modules of pkgs named in deps, and
// the other modules of the workspace (go.work) whose packages the tests
// import: the go command marks them Main too, and their code is the
// user's, so it is instrumented as the main module's is (in place:
// overlays may cover any file outside the module cache). main is the path
// of the module the patterns belong to.
func depModules(pkgs []*packages.Package, deps map[string]bool, main string) []*depModule {
	seen := map[string]*depModule{}
	for _, p := range pkgs {
		m := p.Module
		if m == nil || m.Path == main || (!m.Main && !deps[m.Path]) || seen[m.Path] != nil {
			continue
		}
		d := &depModule{path: m.Path, version: m.Version, dir: m.Dir}
		if m.Replace != nil {
			d.version = m.Replace.Version
		}
		seen[m.Path] = d
	}
	var out []*depModule
	for _, d := range seen {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// inModCache reports whether dir lies in the module cache, where overlays
// are refused.
func inModCache(dir string) bool {
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(goPath(), "pkg", "mod")
	}
	return load.Within(cache, dir)
}

func goPath() string {
	if p := os.Getenv("GOPATH"); p != "" {
		return filepath.SplitList(p)[0]
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, "go")
}

// copyModules copies the dependency modules that live in the module cache
// into work/deps, or with a cache into cache/deps (shared by builds, see
// sharedDir: a module in the module cache never changes, so its path,
// version and directory name the copy), adding a requirement on the
// runtime (which instrumented files import) to each copy's go.mod. A copy
// in a new directory each build made the go command compile the module's
// packages again at every build.
func copyModules(mods []*depModule, work, cache string) error {
	for i, m := range mods {
		if !inModCache(m.dir) {
			continue
		}
		if cache == "" {
			m.copy = filepath.Join(work, "deps", fmt.Sprint(i))
			if err := copyModule(m, m.copy); err != nil {
				return err
			}
			continue
		}
		dir, err := sharedDir(filepath.Join(cache, "deps"), depCopyName(m), sharedDeps,
			func(dir string) error { return copyModule(m, dir) })
		if err != nil {
			return err
		}
		m.copy = dir
	}
	return nil
}

// depCopyName names the shared copy of m by what its contents depend on.
func depCopyName(m *depModule) string {
	h := sha256.Sum256([]byte("copy v1\n" + m.path + "@" + m.version + "\n" + m.dir + "\n" + depRequires))
	base := m.path[strings.LastIndex(m.path, "/")+1:]
	return base + "-" + hex.EncodeToString(h[:])[:24]
}

// depRequires is what a copy's go.mod gains.
const depRequires = "\nrequire " + RuntimeModule + " v0.0.0\n"

// copyModule copies m's directory to dst and adds depRequires to its
// go.mod.
func copyModule(m *depModule, dst string) error {
	if err := copyTree(m.dir, dst); err != nil {
		return err
	}
	gomod := filepath.Join(dst, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		data = []byte("module " + m.path + "\n")
	}
	return os.WriteFile(gomod, append(data, depRequires...), 0o644)
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// depOf returns the dependency module containing path, or nil.
func depOf(mods []*depModule, path string) *depModule {
	for _, m := range mods {
		if load.Within(m.dir, path) {
			return m
		}
	}
	return nil
}

// touchShared marks the shared directories the build names as used now
// (pruneShared keeps what was used within sharedGrace): the analysis
// between Instrument and Build may take a while.
func (r *Result) touchShared() {
	now := time.Now()
	dirs := []string{r.RuntimeDir, r.SitesDir}
	for _, m := range r.deps {
		dirs = append(dirs, m.copy)
	}
	for _, d := range dirs {
		if d != "" && !load.Within(r.WorkDir, d) {
			os.Chtimes(d, now, now)
		}
	}
}

// Copies maps the directory of each dependency module's copy to the
// module's own directory: a stack the test binary prints names the copy's
// files, which the user should see by their own names.
func (r *Result) Copies() map[string]string {
	m := map[string]string{}
	for _, d := range r.deps {
		if d.copy != "" {
			m[d.copy] = d.dir
		}
	}
	return m
}

// redirect moves overlay entries for files of copied modules onto the copy.
func redirect(mods []*depModule, replace map[string]string) map[string]string {
	out := make(map[string]string, len(replace))
	for k, v := range replace {
		if m := depOf(mods, k); m != nil && m.copy != "" {
			rel, _ := filepath.Rel(m.dir, k)
			k = filepath.Join(m.copy, rel)
		}
		out[k] = v
	}
	return out
}

// replaceLines are the go.mod directives pointing copied modules at their
// copies.
func replaceLines(mods []*depModule) string {
	var b strings.Builder
	for _, m := range mods {
		if m.copy != "" {
			fmt.Fprintf(&b, "\nreplace %s => %s\n", m.path, m.copy)
		}
	}
	return b.String()
}
