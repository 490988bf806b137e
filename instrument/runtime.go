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

	"github.com/gopct/gopct/pct"
)

// runtimeFiles returns the runtime's source files: pct.Source minus
// source.go and tests.
func runtimeFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(pct.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if path == "source.go" || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := fs.ReadFile(pct.Source, path)
		files[path] = data
		return err
	})
	return files, err
}

// maxSharedSites is the largest site table a shared runtime's gate holds.
const maxSharedSites = pct.SharedGateSize

// sharedRuntimes is how many runtime directories a cache keeps: one per
// gopct version and runtime go line in use, the least recently used
// removed first.
const sharedRuntimes = 8

// sharedSites is how many sites modules (a build's tables) a cache keeps,
// and sharedDeps how many copies of dependency modules.
const (
	sharedSites = 32
	sharedDeps  = 16
)

// sharedRuntime returns the directory under cache/runtimes that holds
// files, named by their hash, writing it if no build wrote it before.
func sharedRuntime(cache string, files map[string][]byte) (string, error) {
	return sharedDir(filepath.Join(cache, "runtimes"), "rt-"+filesHash(files), sharedRuntimes,
		func(dir string) error { return writeFiles(dir, files) })
}

// sharedDir returns root/name, writing it with write if no build wrote it
// before, and keeps the keep most recently used directories of root. A
// directory appears whole (written aside, then renamed), so that a
// concurrent build never reads a partial one, and is never changed: its
// name must say everything its contents depend on. The go command keys a
// compiled package by its directory (outside -trimpath), so a package
// built from such a directory is compiled once, not by every build.
func sharedDir(root, name string, keep int, write func(dir string) error) (string, error) {
	dir := filepath.Join(root, name)
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // recently used: pruned last
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		return "", err
	}
	if err := write(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr != nil {
			return "", err
		}
		return dir, nil // another build wrote it first
	}
	pruneShared(root, dir, keep)
	return dir, nil
}

// filesHash names a set of files by their names and contents.
func filesHash(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s %d\n", name, len(files[name]))
		h.Write(files[name])
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// sharedGrace is how long a shared directory is kept after its last use
// whatever the count: builds in flight (gopct ci builds a package per CPU
// at once, and one build may write more than n dependency copies) still
// name the directories they were given, which must not vanish under them.
const sharedGrace = time.Hour

// pruneShared removes the least recently used directories of root beyond
// the n most recent that are unused for sharedGrace, never keep (the one
// just written), and leftovers of builds that died while writing one.
func pruneShared(root, keep string, n int) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type dirUse struct {
		path string
		used time.Time
	}
	var dirs []dirUse
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		path := filepath.Join(root, e.Name())
		if strings.HasPrefix(e.Name(), "tmp-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(path)
			}
			continue
		}
		dirs = append(dirs, dirUse{path, info.ModTime()})
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i].used.After(dirs[j].used) })
	for i, d := range dirs {
		if i >= n && d.path != keep && time.Since(d.used) > sharedGrace {
			os.RemoveAll(d.path)
		}
	}
}
