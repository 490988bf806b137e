package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/gopct/gopct/instrument"
)

// The build cache keeps instrumented test binaries, keyed by everything the
// build reads: the module's input files, the rewritten files and the runtime
// module (so a new gopct never reuses an old binary), the pattern, and the Go
// environment. Linking a test binary costs about a second; replays and
// repeated hunts of unchanged code skip it. GOPCT_CACHE=off disables it.

func cacheDir() string {
	if d := os.Getenv("GOPCT_CACHE"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "gopct", "bin")
}

// buildKey hashes the inputs of the build of pattern.
func buildKey(res *instrument.Result, pattern string, flags []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "gopct build v1\n%s\n%s\n%s\n%q\n", pattern, res.Dir, goEnvKey(), flags)
	files := append([]string(nil), res.Inputs...)
	for user, rewritten := range res.Files {
		files = append(files, user+"\x00"+rewritten)
	}
	if res.SiteVarsFile != "" {
		files = append(files, "sites/"+filepath.Base(res.SiteVarsFile)+"\x00"+res.SiteVarsFile)
	}
	sort.Strings(files)
	for _, f := range files {
		if err := hashFile(h, f); err != nil {
			return "", err
		}
	}
	for _, mod := range []struct{ name, dir string }{{"rt", res.RuntimeDir}, {"sites", res.SitesDir}} {
		err := filepath.WalkDir(mod.dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(mod.dir, path)
			return hashFile(h, mod.name+"/"+rel+"\x00"+path)
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile adds a file's name and content; "user\x00rewritten" hashes the
// rewritten content under the user's name.
func hashFile(h io.Writer, spec string) error {
	name, path := spec, spec
	for i := 0; i < len(spec); i++ {
		if spec[i] == 0 {
			name, path = spec[:i], spec[i+1:]
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(h, "file %s\n", name)
	_, err = io.Copy(h, f)
	return err
}

var (
	goEnvOnce sync.Once // gopct ci builds packages in parallel
	goEnv     string
)

// goEnvKey is the part of the Go environment that changes a build.
func goEnvKey() string {
	goEnvOnce.Do(func() {
		out, _ := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64").Output()
		goEnv = runtime.Version() + "\n" + string(out)
	})
	return goEnv
}

// cachedBuild copies a cached binary to out, or builds it (with the extra
// go build flags) and stores it.
func cachedBuild(res *instrument.Result, pattern, out string, flags []string) error {
	dir := cacheDir()
	key, err := buildKey(res, pattern, flags)
	if dir == "" || err != nil {
		return res.Build(pattern, out, flags...)
	}
	cached := filepath.Join(dir, key[:32]+".test")
	if copyFile(cached, out) == nil {
		touch(cached)
		return nil
	}
	if err := res.Build(pattern, out, flags...); err != nil {
		return err
	}
	if _, err := os.Stat(out); err != nil {
		return nil // no test files: nothing to cache
	}
	if os.MkdirAll(dir, 0o755) == nil {
		tmp := cached + fmt.Sprintf(".%d.tmp", os.Getpid())
		if copyFile(out, tmp) == nil {
			os.Rename(tmp, cached)
		}
		prune(dir, cacheBytes)
	}
	return nil
}

// cacheBytes bounds the cache by size: test binaries (a few megabytes
// each), their site→variable tables and front-cache entries (sitevars.go,
// frontcache.go). A count of files would not do: each build leaves three,
// and a module of 51 packages (corpus/) must fit, or every CI run of it
// rebuilds most of them (a cap of 64 files kept 21 builds).
const cacheBytes = 1 << 30

// prune removes the least recently used files beyond keep bytes.
func prune(dir string, keep int64) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		path string
		used time.Time
		size int64
	}
	var es []entry
	for _, e := range entries {
		if e.IsDir() {
			continue // runtimes/: instrument prunes it
		}
		if info, err := e.Info(); err == nil {
			es = append(es, entry{filepath.Join(dir, e.Name()), info.ModTime(), info.Size()})
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].used.After(es[j].used) })
	total := int64(0)
	for _, e := range es {
		if total += e.size; total > keep {
			os.Remove(e.path)
		}
	}
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
