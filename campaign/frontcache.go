package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/gopct/gopct/instrument"
	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// The front cache lets a warm build skip instrumenting. Instrumenting
// loads and type-checks the package with its imports and runs the
// points-to analysis: seconds, where `go test` of unchanged code takes a
// fraction of one. An entry, keyed by what the build is asked (directory,
// pattern, dependency modules, gopct's own executable, the Go
// environment), records every input file the instrumentation read with its
// hash, the listing of their directories (a new file in a package changes
// it), the binary's build-cache key, and what the campaign needs of the
// instrumentation (sites, variables, site→variable table, package). A
// lookup rehashes the inputs: any change, and the entry is not used.
// Modules with local replace directives or in a workspace read files
// outside their inputs' view: no entry for them.

type frontEntry struct {
	Inputs   map[string]string `json:"inputs"` // file -> sha256
	Dirs     map[string]string `json:"dirs"`   // directory -> hash of its file names
	BinKey   string            `json:"binKey"`
	Sites    []pct.SiteInfo    `json:"sites"`
	Vars     []pct.VarInfo     `json:"vars"`
	SiteVars [][]int32         `json:"siteVars"`
	Analysis string            `json:"analysis"`
	Module   string            `json:"module"`
	Root     string            `json:"root"`
	Package  string            `json:"package"`
	Dir      string            `json:"dir"`
	Copies   map[string]string `json:"copies"`
}

var (
	exeHashOnce sync.Once
	exeHash     string
)

// selfHash identifies the running gopct: a new gopct never reuses what an
// old one recorded.
func selfHash() string {
	exeHashOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			exeHash = hex.EncodeToString(h.Sum(nil))
		}
	})
	return exeHash
}

// frontPath is where the entry of a build request lives ("" : no front
// cache for it).
func frontPath(dir, pattern string, deps, flags []string) string {
	cache := cacheDir()
	self := selfHash()
	if cache == "" || self == "" || os.Getenv("GOPCT_ALIAS") != "" || inWorkspace(dir) {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "gopct front v1\n%s\n%s\n%s\n%q\n%s\n%q\n", self, dir, pattern, deps, goEnvKey(), flags)
	return filepath.Join(cache, "front-"+hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

// lookFront returns the binary of a build request whose inputs are
// unchanged since its entry was recorded, copied to out, or nil.
func lookFront(path, out string) *frontEntry {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var e frontEntry
	if json.Unmarshal(data, &e) != nil || len(e.Inputs) == 0 {
		return nil
	}
	for f, want := range e.Inputs {
		if got, err := fileHash(f); err != nil || got != want {
			return nil
		}
	}
	for d, want := range e.Dirs {
		if got, err := dirHash(d); err != nil || got != want {
			return nil
		}
	}
	bin := filepath.Join(cacheDir(), e.BinKey[:32]+".test")
	if copyFile(bin, out) != nil {
		return nil
	}
	touch(bin)
	touch(path)
	return &e
}

// storeFront records the entry of a build request that just built b.
func storeFront(path string, res *instrument.Result, pattern string, flags []string, b *Binary) {
	if path == "" || localReplace(res.ModuleRoot) {
		return
	}
	key, err := buildKey(res, pattern, flags)
	if err != nil {
		return
	}
	e := frontEntry{Inputs: map[string]string{}, Dirs: map[string]string{}, BinKey: key, Sites: b.Sites, Vars: b.Vars,
		SiteVars: b.SiteVars, Analysis: b.Analysis, Module: b.Module, Root: b.root, Package: b.Package, Dir: b.Dir, Copies: b.copies}
	for _, f := range res.Inputs {
		if e.Inputs[f], err = fileHash(f); err != nil {
			return
		}
		d := filepath.Dir(f)
		if _, ok := e.Dirs[d]; !ok {
			if e.Dirs[d], err = dirHash(d); err != nil {
				return
			}
		}
	}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if os.WriteFile(tmp, data, 0o644) == nil {
		os.Rename(tmp, path)
	}
}

// inWorkspace says whether the go command runs in a workspace (go.work)
// in dir.
func inWorkspace(dir string) bool {
	w, err := load.Workspace(dir)
	return err != nil || w != ""
}

// localReplace says whether the module's go.mod replaces a module by a
// directory: files there are read without being inputs.
func localReplace(root string) bool {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return true
	}
	for _, l := range strings.Split(string(data), "\n") {
		if i := strings.Index(l, "=>"); i >= 0 {
			t := strings.TrimSpace(l[i+2:])
			if strings.HasPrefix(t, ".") || strings.HasPrefix(t, "/") {
				return true
			}
		}
	}
	return false
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// dirHash hashes the names of the files (not subdirectories) in dir.
func dirHash(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	h := sha256.Sum256([]byte(strings.Join(names, "\x00")))
	return hex.EncodeToString(h[:]), nil
}
