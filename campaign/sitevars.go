package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopct/gopct/alias"
	"github.com/gopct/gopct/instrument"
	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// Every build runs the alias analysis over the instrumenter's own load, so
// that the runtime can make only the memory sites of chosen variables
// scheduling points (Config.Vars). The table is cached beside the binaries,
// keyed by the module's inputs, the pattern, the Go environment and gopct's
// own executable. An analysis that fails, panics or overruns its budget
// never fails the build: every memory site is then "unknown" (it may touch
// any variable), which keeps it a scheduling point in every run.
// GOPCT_ALIAS=off skips the analysis (the same degraded table), for runs
// that never choose variables and cannot afford its cost (about a second
// and 150 MB per cold build, docs/DESIGN.md).

// analysisBudget bounds the points-to solve of one build (loading and SSA
// construction are not interruptible and not counted). ALIAS.md measures
// 1.0–2.3 s for a program importing net/http under load.
const analysisBudget = 20 * time.Second

// analysisCacheVersion changes when the cached table's meaning changes.
const analysisCacheVersion = "gopct sitevars v2" // v2: map operations keyed apart (pct.VarKey)

// cachedAnalysis is one cache entry: the table, or why there is none.
type cachedAnalysis struct {
	Table  *instrument.VarTable `json:"table,omitempty"`
	Failed string               `json:"failed,omitempty"`
}

// siteVarTable returns the site→variable table of the build, or nil and
// the reason the build goes without one.
func siteVarTable(res *instrument.Result, pattern string) (*instrument.VarTable, string) {
	if os.Getenv("GOPCT_ALIAS") == "off" {
		return nil, "the points-to analysis is off (GOPCT_ALIAS=off)"
	}
	dir := cacheDir()
	key, err := analysisKey(res, pattern)
	path := ""
	if dir != "" && err == nil {
		path = filepath.Join(dir, key[:32]+".vars.json")
		var c cachedAnalysis
		if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &c) == nil {
			touch(path)
			return c.Table, c.Failed
		}
	}
	table, err := analyze(res.Program)
	c := cachedAnalysis{Table: table}
	if err != nil {
		c.Failed = err.Error()
	}
	if path != "" {
		storeJSON(dir, path, c)
	}
	return c.Table, c.Failed
}

// analyze runs the points-to analysis from every function of the module
// and turns its result into the instrumenter's table.
func analyze(lp *load.Program) (table *instrument.VarTable, err error) {
	defer func() {
		if r := recover(); r != nil {
			table, err = nil, fmt.Errorf("points-to analysis failed: %v", r)
		}
	}()
	r, err := alias.Analyze(alias.FromLoad(lp), alias.Options{Deadline: time.Now().Add(analysisBudget)})
	if err != nil {
		return nil, err
	}
	table = &instrument.VarTable{Sites: map[string][]int32{}}
	for _, v := range r.Vars {
		table.Vars = append(table.Vars, pct.VarInfo{Name: v.Name, Kind: string(v.Kind), Type: v.Type})
	}
	for pos, ids := range r.SiteVars() {
		vars := make([]int32, len(ids))
		for i, id := range ids {
			vars[i] = int32(id)
		}
		table.Sites[pos] = vars
	}
	return table, nil
}

// analysisKey hashes what the table depends on.
func analysisKey(res *instrument.Result, pattern string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n", analysisCacheVersion, toolID(), pattern, res.Dir, goEnvKey())
	for _, f := range res.Inputs {
		if err := hashFile(h, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var (
	toolOnce sync.Once
	toolHash string
)

// toolID identifies gopct's own code (a new analysis never reuses an old
// table): the hash of the running executable, or of nothing when it
// cannot be read.
func toolID() string {
	toolOnce.Do(func() {
		h := sha256.New()
		if exe, err := os.Executable(); err == nil {
			hashFile(h, exe)
		}
		toolHash = hex.EncodeToString(h.Sum(nil))
	})
	return toolHash
}

func storeJSON(dir, path string, v any) {
	data, err := json.Marshal(v)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp := path + fmt.Sprintf(".%d.tmp", os.Getpid())
	if os.WriteFile(tmp, data, 0o644) == nil {
		os.Rename(tmp, path)
	}
}

func touch(path string) {
	now := time.Now()
	os.Chtimes(path, now, now) // most recently used
}

// VarIDs resolves variable names to the ids the runtime's table uses. A
// name is a variable's name in Q (as `gopct vars` lists them), a global's
// short name ("counter" for "example.com/p.counter"), or the source text
// of an access ("c.n": the variables its sites may touch).
func (b *Binary) VarIDs(names []string) ([]int, error) {
	if names == nil {
		return nil, nil
	}
	if b.Vars == nil {
		return nil, userErr("-vars needs the points-to analysis, which is not available for %s: %s", b.Package, b.Analysis)
	}
	ids := []int{}
	for _, n := range names {
		found := b.varsNamed(n)
		if len(found) == 0 {
			return nil, userErr("no variable %q in %s (gopct vars lists them)", n, b.Package)
		}
		ids = append(ids, found...)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// varsNamed finds the variables a -vars name stands for.
func (b *Binary) varsNamed(name string) []int {
	if i := slices.IndexFunc(b.Vars, func(v pct.VarInfo) bool { return v.Name == name }); i >= 0 {
		return []int{i}
	}
	var ids []int
	for i, v := range b.Vars {
		if v.Kind == "global" && strings.HasSuffix(v.Name, "."+name) {
			ids = append(ids, i)
		}
	}
	if len(ids) > 0 {
		return ids
	}
	for i, s := range b.Sites {
		if s.Expr == name && i < len(b.SiteVars) {
			for _, v := range b.SiteVars[i] {
				ids = append(ids, int(v))
			}
		}
	}
	return ids
}
