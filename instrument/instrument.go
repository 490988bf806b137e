package instrument

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/go/packages"

	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// RuntimeModule is the module path of the runtime. The runtime is written
// as a module of its own in the work directory (outside the user's tree),
// and the user's go.mod is overlaid with a require and a replace directive
// pointing at it. A package that existed only in the overlay could not hold
// assembly (the assembler runs in the package directory), and the runtime's
// fast goroutine identity is a few lines of assembly.
const RuntimeModule = "gopct.invalid/rt"

// runtimeName is the import name instrumented files give the runtime.
const runtimeName = "__gopct"

// Config says what to instrument.
type Config struct {
	Dir      string   // directory where `go` runs (inside the user's module)
	Patterns []string // package patterns, e.g. "./bank"
	Tests    []string // test function names to wrap; nil means every TestXxx
	Deps     []string // paths of dependency modules to instrument too; "auto": AutoDeps that the tests import
	// Program is the load of Dir and Patterns when the caller already has
	// it (to analyse the same packages, see package load); nil: load here.
	Program *load.Program
	// RuntimeCache is a directory where the runtime's sources are kept
	// between builds, one subdirectory per content (sharedRuntime): the go
	// command then compiles the runtime once, not at every build (it keys
	// its cache by the package's directory). "": a copy in WorkDir.
	RuntimeCache string
}

// AutoDeps are the dependency modules instrumented by default ("auto"):
// libraries whose goroutines would otherwise run unmanaged. testify's
// assert.Eventually polls its condition on a goroutine of its own and
// waits with a real timer; instrumented, both are the scheduler's, and its
// failures are quoted (TErrorf). benbjohnson/clock's Mock, the mock clock
// of go.uber.org/ratelimit's tests among others, makes goroutines wait on
// its own mutex and timer channels: uninstrumented, a goroutine blocked in
// Mock.Sleep stalled the execution (exit 2 on every ratelimit test).
// go.uber.org/goleak reads every goroutine's stack (runtime.Stack), which
// instrumented reads the test's goroutines, not gopct's (pct/stackdump.go):
// uninstrumented, `defer goleak.VerifyNone(t)` failed every execution.
// gomock (go.uber.org/mock, and github.com/golang/mock before it) reports
// a missing or unexpected call through its TestReporter's Fatalf:
// uninstrumented, the report said "test failed" without the message.
// k8s.io/utils holds Kubernetes' mock clock (clock/testing's FakeClock):
// its Step sends on the channels of the timers it made, which the code
// under test selects on; uninstrumented, the send was invisible, the
// goroutine waiting on it stayed blocked, and client-go's delaying queue
// tests failed ("should have added") in executions no real run shows.
// github.com/valyala/bytebufferpool recycles buffers through a sync.Pool
// inside it: uninstrumented, a Put and the Get that hands the buffer to
// another goroutine were invisible, so the race detector saw the two
// goroutines' uses of the buffer unordered (fasthttp's
// TestPipelineClientChannelLifecycleRace: a FALSE race on bodyBuf.B, sweep
// regr36); instrumented, they are pct.PoolPut and pct.PoolGet, an edge.
// github.com/libp2p/go-buffer-pool is the same for go-yamux and libp2p:
// the copies of two sessions' send loops into one recycled buffer were 15
// FALSE races in go-yamux v5's tests (sweep of stop 32), once copies were
// events. Beyond these, auto rewrites the sync.Pool calls of every other
// module (poolonly.go): the general form of the last two.
var AutoDeps = []string{"golang.org/x/sync", "github.com/stretchr/testify", "github.com/benbjohnson/clock", "go.uber.org/goleak",
	"go.uber.org/mock", "github.com/golang/mock", "k8s.io/utils", "github.com/valyala/bytebufferpool", "github.com/libp2p/go-buffer-pool"}

// Result describes an instrumented copy of the user's packages. The user's
// files are never written; everything lives in WorkDir and is reached
// through the overlay file.
type Result struct {
	Dir         string
	ModulePath  string
	ModuleRoot  string
	OverlayPath string // the file passed to `go -overlay`
	WorkDir     string // temporary directory; removed by Cleanup
	RuntimeDir  string // the runtime module's directory (shared, or in WorkDir)
	SitesDir    string // the sites module's directory (shared, or in WorkDir)
	// SiteVarsFile is the site→variable table's source, written by
	// WriteSiteVars into WorkDir and overlaid into SitesDir ("": none).
	SiteVarsFile string
	Sites        []pct.SiteInfo    // index = site id
	Helpers      []string          // functions that call Helper(), as runtime frames name them
	LinksNet     bool              // the test binary links net: its resolver is warmed (netWarmFile)
	Packages     []string          // import paths instrumented, sorted
	Files        map[string]string // user file -> rewritten file (the overlay, minus the runtime)
	Inputs       []string          // every file the build reads that may change (inputs: local modules' sources, embeds, go.mod, go.sum; go.work), sorted
	Program      *load.Program     // the load the rewrite worked on

	deps     []*depModule        // dependency modules instrumented too, then those of poolPkgs
	poolPkgs []*packages.Package // other modules' packages whose pool calls are rewritten (poolonly.go)
	overlay  map[string]string   // the overlay's replacements (writeOverlay)
}

// Instrument loads the packages of cfg.Patterns with their tests, rewrites
// them and every main-module package they import, and writes the overlay.
// Errors caused by the user's code or setup satisfy errors.Is(err, ErrUser).
func Instrument(cfg Config) (*Result, error) {
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	deps, explicit := depSet(cfg.Deps)
	prog := cfg.Program
	if prog == nil {
		if prog, err = load.Packages(load.Config{Dir: dir, Patterns: cfg.Patterns}); err != nil {
			return nil, err
		}
	}
	pkgs, err := selectPackages(prog.Roots, cfg.Patterns, deps)
	if err != nil {
		return nil, err
	}
	mod := prog.Module
	work, err := os.MkdirTemp("", "gopct-instr-")
	if err != nil {
		return nil, err
	}
	res := &Result{Dir: dir, ModulePath: mod.Path, ModuleRoot: mod.Dir, WorkDir: work, Files: map[string]string{}, Program: prog}
	res.deps = depModules(pkgs, deps, mod.Path)
	if err := missingDeps(explicit, res.deps); err != nil {
		res.Cleanup()
		return nil, err
	}
	if slices.Contains(cfg.Deps, "auto") {
		res.poolPkgs = poolPackages(prog.Roots, deps)
		res.deps = append(res.deps, poolModules(res.poolPkgs, mod.Path)...)
	}
	if err := copyModules(res.deps, work, cfg.RuntimeCache); err != nil {
		res.Cleanup()
		return nil, err
	}
	if err := res.rewrite(pkgs, cfg.Tests, cfg.RuntimeCache); err != nil {
		res.Cleanup()
		return nil, err
	}
	return res, nil
}

// depSet expands Config.Deps ("auto" stands for AutoDeps) and returns the
// modules named explicitly, which the tests must import.
func depSet(names []string) (deps map[string]bool, explicit []string) {
	deps = map[string]bool{}
	for _, d := range names {
		if d == "auto" {
			for _, a := range AutoDeps {
				deps[a] = true
			}
			continue
		}
		deps[d] = true
		explicit = append(explicit, d)
	}
	return deps, explicit
}

// missingDeps reports the -deps modules the test does not import.
func missingDeps(want []string, got []*depModule) error {
	have := map[string]bool{}
	for _, m := range got {
		have[m.path] = true
	}
	for _, w := range want {
		if !have[w] {
			return userErrorf(NoPackages, "module %s: no package of it is imported by the tests", w)
		}
	}
	return nil
}

// selectPackages returns the main-module packages to instrument: the
// packages of the patterns (all variants, tests included) and the
// main-module packages they import transitively, sorted by ID.
func selectPackages(roots []*packages.Package, patterns []string, deps map[string]bool) ([]*packages.Package, error) {
	seen := map[string]bool{}
	var out []*packages.Package
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p.ID] {
			return
		}
		seen[p.ID] = true
		main := p.Module != nil && (p.Module.Main || deps[p.Module.Path])
		if !main && !isTestMain(p) {
			return // standard library or another module: not ours to rewrite
		}
		if !isTestMain(p) {
			out = append(out, p)
		}
		for _, path := range sortedKeys(p.Imports) {
			visit(p.Imports[path])
		}
	}
	for _, p := range roots {
		visit(p)
	}
	if len(out) == 0 {
		var msgs []string
		for _, p := range roots {
			for _, e := range p.Errors {
				msgs = append(msgs, e.Error())
			}
		}
		if len(msgs) > 0 {
			return nil, userErrorf(LoadFailed, "%s", strings.Join(msgs, "\n"))
		}
		return nil, userErrorf(NoPackages, "no main-module packages match %q", patterns)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, checkPackages(out)
}

// isTestMain reports whether p is the generated main package of a test
// binary (ID "path.test"); its files live in the build cache.
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test")
}

// checkPackages rejects packages that do not type-check or use cgo.
func checkPackages(pkgs []*packages.Package) error {
	var msgs []string
	seen := map[string]bool{}
	add := func(e packages.Error) {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			add(e)
		}
	}
	if len(msgs) > 0 {
		// The go command's errors about the packages the tests import
		// come first: a package no required module provides is the
		// cause, and the importer's type error only says "could not
		// import X (invalid package name: "")" (hystrix-go, a module
		// without go.mod, in the sweep of stop 34).
		own := msgs
		msgs, seen = nil, map[string]bool{}
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			for _, e := range p.Errors {
				if e.Kind == packages.ListError {
					add(e)
				}
			}
		})
		for _, m := range own {
			if !seen[m] {
				msgs = append(msgs, m)
			}
		}
	}
	if len(msgs) > 0 {
		return userErrorf(TypeErrors, "%s", strings.Join(msgs, "\n"))
	}
	for _, p := range pkgs {
		for _, name := range p.GoFiles {
			// p.Syntax holds cgo's output for cgo files: parse the originals.
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				continue // reported by the type checker
			}
			for _, imp := range f.Imports {
				if imp.Path.Value == `"C"` {
					return userErrorf(CgoUnsupported, "%s imports \"C\"%s", name, noCgoHint(name))
				}
			}
		}
	}
	return nil
}

// noCgoHint is the advice for a cgo file whose package has files for
// builds without cgo (//go:build !cgo): pebble's internal/manual allocates
// with C's malloc, or with make under !cgo (sweep fresh36), and its tests
// run under gopct with CGO_ENABLED=0.
func noCgoHint(name string) string {
	dir := filepath.Dir(name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(line, "package ") {
				break
			}
			if strings.HasPrefix(line, "//go:build") && strings.Contains(line, "!cgo") {
				return fmt.Sprintf(" (its package builds without cgo too, %s: run gopct with CGO_ENABLED=0)", e.Name())
			}
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// unit is one file to rewrite with the package variant it was taken from.
type unit struct {
	pkg  *packages.Package
	file *ast.File
	path string
}

// units lists each file of pkgs once, in site-numbering order: the
// dependencies' files, the module's, its test files (see the rank below),
// each by package path, then file name. A file compiled in several
// variants (p and p [p.test]) is rewritten from one of them; the rewrite
// depends only on the file's own syntax and types, so it suits every
// variant.
func units(pkgs []*packages.Package, root string, deps []*depModule) []unit {
	seen := map[string]bool{}
	var us []unit
	for _, p := range pkgs {
		for i, f := range p.Syntax {
			path := p.CompiledGoFiles[i]
			if seen[path] || (!load.Within(root, path) && depOf(deps, path) == nil) {
				continue
			}
			seen[path] = true
			us = append(us, unit{p, f, path})
		}
	}
	// Site ids follow this order: the dependency modules' files first,
	// then the module's, its test files last, so that an edit of a test
	// renumbers no site of the code it tests nor of the dependencies, whose
	// rewritten files then stay the same and the go command's build cache
	// keeps their compiled packages (sitesImported).
	rank := func(u unit) int {
		switch {
		case !load.Within(root, u.path):
			return 0
		case !strings.HasSuffix(u.path, "_test.go"):
			return 1
		}
		return 2
	}
	sort.SliceStable(us, func(i, j int) bool {
		if ri, rj := rank(us[i]), rank(us[j]); ri != rj {
			return ri < rj
		}
		if us[i].pkg.PkgPath != us[j].pkg.PkgPath {
			return us[i].pkg.PkgPath < us[j].pkg.PkgPath
		}
		return us[i].path < us[j].path
	})
	return us
}

// sitesImported says whether the rewritten file at path imports the sites
// module, whose init registers the build's tables: the test files do, and
// the hunted test's file is always rewritten (its test is wrapped), so the
// tables are linked into every test binary. The other files do not: the
// go command keys a compiled package by its imports' compiled contents,
// and a new site table (any edit that moves a site) would otherwise
// recompile every instrumented package, dependencies included (testify:
// ~5 s of a rebuild). Instrumented code that runs before the tables are
// registered (package initialisation) runs outside any execution, where
// the runtime reads no table: the memory gates are off until an execution
// switches them on.
func sitesImported(path string) bool { return strings.HasSuffix(path, "_test.go") }

// Namer names the sites of the instrumented files (package load's
// convention, which the alias analysis shares).
func (r *Result) Namer() *load.Namer {
	deps := make([]load.Dep, len(r.deps))
	for i, m := range r.deps {
		deps[i] = load.Dep{Path: m.path, Version: m.version, Dir: m.dir}
	}
	return r.Program.Namer(deps)
}

// inputs lists the files the build depends on that may change, for build
// caching: the files of every package of the load that lives outside the
// module cache and GOROOT (the main module's, a module replaced by a local
// directory, the other modules of a workspace, instrumented or not), the
// go.mod and go.sum of their modules, and the workspace's go.work and
// go.work.sum. The module cache never changes under a version.
func (r *Result) inputs(pkgs []*packages.Package) {
	seen := map[string]bool{}
	add := func(path string) {
		if !seen[path] {
			seen[path] = true
			r.Inputs = append(r.Inputs, path)
		}
	}
	addIfExists := func(path string) {
		if _, err := os.Stat(path); err == nil {
			add(path)
		}
	}
	local := func(p *packages.Package) {
		m := p.Module
		if m == nil || m.Dir == "" || inModCache(m.Dir) {
			return // the standard library, or an immutable module version
		}
		for _, list := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.EmbedFiles} {
			for _, f := range list {
				if load.Within(m.Dir, f) {
					add(f)
				}
			}
		}
		addIfExists(filepath.Join(m.Dir, "go.mod"))
		addIfExists(filepath.Join(m.Dir, "go.sum"))
	}
	var roots []*packages.Package
	if r.Program != nil {
		roots = r.Program.Roots
	}
	packages.Visit(append(roots, pkgs...), nil, local)
	add(filepath.Join(r.ModuleRoot, "go.mod"))
	addIfExists(filepath.Join(r.ModuleRoot, "go.sum"))
	if work := r.workspace(); work != "" {
		addIfExists(work)
		addIfExists(work + ".sum")
	}
	sort.Strings(r.Inputs)
}

// rewrite instruments every file, writes the rewritten files, the runtime
// and the overlay into r.WorkDir.
func (r *Result) rewrite(pkgs []*packages.Package, tests []string, runtimeCache string) error {
	r.inputs(pkgs)
	r.LinksNet = linksNet(pkgs)
	var filter map[string]bool
	if tests != nil {
		filter = map[string]bool{}
		for _, t := range tests {
			filter[t] = true
		}
	}
	replace := map[string]string{}
	pkgSet := map[string]bool{}
	rtImport := RuntimeModule
	globals := newGlobalFiles()
	names := r.Namer()
	instrumented := map[string]bool{}
	// First, so that their site ids move with no edit of the user's.
	if err := r.rewritePools(replace); err != nil {
		return err
	}
	us := units(pkgs, r.ModuleRoot, r.deps)
	pinning := pinningPackages(us)
	for _, u := range us {
		if path := strings.TrimSuffix(u.pkg.PkgPath, "_test"); !pinning[path] {
			instrumented[path] = true
		}
	}
	for i, u := range us {
		pkgSet[u.pkg.PkgPath] = true
		globals.add(u)
		if pinning[strings.TrimSuffix(u.pkg.PkgPath, "_test")] && !strings.HasSuffix(u.path, "_test.go") {
			continue // compiled as written: pinned sections (pinned.go)
		}
		src, err := os.ReadFile(u.path)
		if err != nil {
			return err
		}
		fr := newFileRewriter(u.pkg.Fset, u.file, src, u.pkg.TypesInfo, u.pkg.Types)
		fr.lineName = u.path
		fr.names = names
		fr.rtImport = rtImport
		fr.tables = sitesImported(u.path)
		fr.tests = filter
		fr.pkgs = instrumented
		fr.sites, fr.helpers = r.Sites, r.Helpers
		out, changed, err := fr.rewriteFile()
		if err != nil {
			return fmt.Errorf("instrumenting %s: %w", u.path, err)
		}
		r.Sites, r.Helpers = fr.sites, fr.helpers
		if !changed {
			continue
		}
		if moduleOld(u.pkg) {
			out = raiseLang(src, out)
		}
		dst := filepath.Join(r.WorkDir, "src", strconv.Itoa(i)+"_"+filepath.Base(u.path))
		if err := writeFile(dst, out); err != nil {
			return err
		}
		replace[u.path] = dst
		r.Files[u.path] = dst
	}
	r.Packages = sortedKeys(pkgSet)
	if err := globals.write(r.WorkDir, rtImport, replace); err != nil {
		return err
	}
	if err := r.writeRuntime(runtimeCache, replace); err != nil {
		return err
	}
	return r.writeOverlay(replace)
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// writeRuntime writes the runtime module (pct.Source minus source.go and
// tests) and the sites module (the generated tables), and overlays the
// user's go.mod so that the module requires both, replaced by their
// directories. The runtime's directory is shared by builds when
// Config.RuntimeCache allows it (sharedRuntime), else WorkDir/rt.
func (r *Result) writeRuntime(cache string, replace map[string]string) error {
	files, err := runtimeFiles()
	if err != nil {
		return err
	}
	goLine := runtimeGoLine(r.Program.Module.GoVersion)
	files["go.mod"] = []byte("module " + RuntimeModule + "\n\ngo " + goLine + "\n")
	if cache == "" || len(r.Sites) > maxSharedSites {
		files[gateSizeFile] = gateSizeSource(len(r.Sites))
		cache = ""
	}
	r.raiseOld(files)
	if cache != "" {
		r.RuntimeDir, err = sharedRuntime(cache, files)
	} else {
		r.RuntimeDir = filepath.Join(r.WorkDir, "rt")
		err = writeFiles(r.RuntimeDir, files)
	}
	if err != nil {
		return err
	}
	tables := map[string][]byte{
		"go.mod":  []byte("module " + SitesModule + "\n\ngo " + goLine + "\n\nrequire " + RuntimeModule + " v0.0.0\n"),
		sitesFile: sitesSource(r.Sites),
	}
	if len(r.Helpers) > 0 {
		tables[helpersFile] = helpersSource(r.Helpers)
	}
	if r.LinksNet {
		tables[netWarmFile] = []byte(netWarmSource)
	}
	r.raiseOld(tables)
	if cache != "" {
		// Shared like the runtime: a rebuild with the same tables (an
		// edit that moves no site) compiles no package that imports them.
		r.SitesDir, err = sharedDir(filepath.Join(cache, "sites"), "sites-"+filesHash(tables), sharedSites,
			func(dir string) error { return writeFiles(dir, tables) })
	} else {
		r.SitesDir = filepath.Join(r.WorkDir, "sites")
		err = writeFiles(r.SitesDir, tables)
	}
	if err != nil {
		return err
	}
	return r.overlayGoMod(replace)
}

// raiseOld raises the language version of the Go files among files when
// the main module's is too old for the runtime's code (raiseLang).
func (r *Result) raiseOld(files map[string][]byte) {
	if !oldLang(r.Program.Module.GoVersion) {
		return
	}
	for name, data := range files {
		if strings.HasSuffix(name, ".go") {
			files[name] = raiseLang(data, data)
		}
	}
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		if err := writeFile(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}

// overlayGoMod adds the runtime and sites modules to a copy of the user's
// go.mod.
func (r *Result) overlayGoMod(replace map[string]string) error {
	gomod := filepath.Join(r.ModuleRoot, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	data = dropReplaced(gomod, data, r.deps)
	data = append(data, fmt.Sprintf("\nrequire (\n\t%s v0.0.0\n\t%s v0.0.0\n)\n\nreplace %s => %s\n\nreplace %s => %s\n",
		RuntimeModule, SitesModule, RuntimeModule, r.RuntimeDir, SitesModule, r.SitesDir)...)
	if !strings.Contains(string(data), "asynctimerchan") {
		// Modules older than go 1.23 default to the asynchronous timer
		// channels, under which testing/synctest refuses to run.
		data = append(data, "\ngodebug asynctimerchan=0\n"...)
	}
	data = append(data, replaceLines(r.deps)...)
	dst := filepath.Join(r.WorkDir, "go.mod")
	if err := writeFile(dst, data); err != nil {
		return err
	}
	replace[gomod] = dst
	return nil
}

// dropReplaced removes the user's replacements of the modules that are
// replaced by their copies (replaceLines): a module replaced by another
// module (a fork, or a version pinned by replace M => M v1.2.3) lives in
// the module cache and is copied, and a second replacement of it is an
// error of the go command ("conflicting replacements"), or, when the
// user's names a version, silently wins over the copy.
func dropReplaced(name string, data []byte, mods []*depModule) []byte {
	copied := map[string]bool{}
	for _, m := range mods {
		if m.copy != "" {
			copied[m.path] = true
		}
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return data
	}
	var drop []module.Version
	for _, r := range f.Replace {
		if copied[r.Old.Path] {
			drop = append(drop, r.Old)
		}
	}
	if len(drop) == 0 {
		return data
	}
	for _, v := range drop {
		f.DropReplace(v.Path, v.Version)
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return data
	}
	return out
}

func (r *Result) writeOverlay(replace map[string]string) error {
	r.overlay = redirect(r.deps, replace)
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{r.overlay}, "", "\t")
	if err != nil {
		return err
	}
	r.OverlayPath = filepath.Join(r.WorkDir, "overlay.json")
	return os.WriteFile(r.OverlayPath, data, 0o644)
}

// Build compiles the instrumented test binary of pkgPattern into outBinary:
// go test -c -vet=off -overlay ... [flags] -o outBinary pkgPattern, run in
// r.Dir. vet is off because it cannot see packages that exist only in the
// overlay. flags are extra build flags (-race for gopct hunt -gorace); a
// module with a vendor directory is built with -mod=mod (load.ModFlags).
func (r *Result) Build(pkgPattern, outBinary string, flags ...string) error {
	out, err := filepath.Abs(outBinary)
	if err != nil {
		return err
	}
	r.touchShared()
	args := append([]string{"test", "-c", "-vet=off", "-overlay=" + r.OverlayPath}, load.ModFlags(r.ModuleRoot)...)
	args = append(args, flags...)
	return r.goCmd(append(args, "-o", out, pkgPattern)...)
}

// goCmd runs the go command in r.Dir and wraps a failure in a BuildError.
func (r *Result) goCmd(args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = r.Dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		if work := r.workspace(); work != "" && moduleLookupFailed(buf.String()) {
			return userErrorf(LoadFailed, "%s\n%s is a workspace: gopct adds its runtime to your module's go.mod through an overlay, and "+
				"with that change the go command looks up every requirement of the workspace's modules, which fails for a version "+
				"that only go.work provides. Require versions that exist, or run gopct with GOWORK=off (and a replace directive "+
				"for each module of the workspace the package needs)", strings.TrimSpace(buf.String()), work)
		}
		return &BuildError{Args: args, Output: buf.String(), Err: err}
	}
	return nil
}

// workspace returns the go.work file the go command uses in r.Dir, or "".
func (r *Result) workspace() string {
	if w, err := load.Workspace(r.Dir); err == nil && w != "off" {
		return w
	}
	return ""
}

// moduleLookupFailed recognises the go command's failure to fetch a
// module version.
func moduleLookupFailed(out string) bool {
	return strings.Contains(out, "/@v/") || strings.Contains(out, "module lookup disabled")
}

// Cleanup removes the work directory.
func (r *Result) Cleanup() error {
	if r == nil || r.WorkDir == "" {
		return nil
	}
	return os.RemoveAll(r.WorkDir)
}
