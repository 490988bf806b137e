package load

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go/token"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gopct/gopct/internal/usererr"
)

// Config says what to load.
type Config struct {
	Dir      string   // directory the go command runs in ("": the current one)
	Patterns []string // package patterns (none: ".")
	Env      []string // environment of the go command (nil: os.Environ())
}

// Mode is what every load asks of go/packages: syntax, types and type
// information of the patterns' packages and of all their dependencies
// (SSA needs the whole program, the instrumenter the module's syntax), the
// module of each package and its embedded files (build cache inputs).
const Mode = packages.LoadAllSyntax | packages.NeedModule | packages.NeedEmbedFiles

// Program is one load: the packages of the patterns, their tests and all
// their dependencies, type-checked from source.
type Program struct {
	Fset   *token.FileSet
	Roots  []*packages.Package // the packages of the patterns, test variants included
	Module *packages.Module    // the main module
	Dir    string              // absolute directory the go command ran in

	ssaOnce sync.Once
	ssa     *ssa.Program
}

// Packages loads the packages of cfg.Patterns with their tests. Packages
// with errors are returned as they are (see the package invariants); only
// a directory outside any module or a failing go command is an error.
func Packages(cfg Config) (*Program, error) {
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	gomod, err := CheckModule(dir, cfg.Env)
	if err != nil {
		return nil, err
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pcfg := &packages.Config{Mode: Mode, Dir: dir, Env: cfg.Env, Tests: true, BuildFlags: ModFlags(filepath.Dir(gomod))}
	roots, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, usererr.New(usererr.LoadFailed, "%v", err)
	}
	if len(roots) == 0 {
		return nil, usererr.New(usererr.NoPackages, "no packages match %s", strings.Join(patterns, " "))
	}
	p := &Program{Fset: pcfg.Fset, Roots: roots, Module: MainModule(roots), Dir: dir}
	if p.Fset == nil {
		p.Fset = roots[0].Fset
	}
	if p.Module == nil {
		if msgs := rootErrors(roots); len(msgs) > 0 {
			return nil, usererr.New(usererr.LoadFailed, "%s", strings.Join(msgs, "\n"))
		}
		return nil, usererr.New(usererr.NoPackages, "no package of the main module matches %s", strings.Join(patterns, " "))
	}
	return p, nil
}

// rootErrors lists the errors of the patterns' packages (a directory that
// does not exist, a package outside the module), deduplicated.
func rootErrors(roots []*packages.Package) []string {
	var msgs []string
	for _, r := range roots {
		for _, e := range r.Errors {
			if m := e.Error(); !slices.Contains(msgs, m) {
				msgs = append(msgs, m)
			}
		}
	}
	return msgs
}

// CheckModule gives a clear error when dir is not inside a module, before
// go/packages produces a less readable one. It returns the module's go.mod.
func CheckModule(dir string, env []string) (string, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", usererr.New(usererr.NotInModule, "%s is not a directory", dir)
	}
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return "", usererr.New(usererr.NotInModule, "go env GOMOD in %s: %v", dir, err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", usererr.New(usererr.NotInModule, "%s has no go.mod in it or any parent directory", dir)
	}
	return gomod, nil
}

// Workspace returns what `go env GOWORK` prints in dir: the go.work file
// the go command uses there, "" outside a workspace, or "off".
func Workspace(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// ModFlags are the go command flags gopct loads and builds the module rooted
// at moduleRoot with: -mod=mod when it has a vendor directory, none
// otherwise. The build adds gopct's runtime module through a go.mod overlay
// (require and replace), which vendor mode refuses ("inconsistent
// vendoring"), so a vendoring module is loaded and built from the module
// cache, at the versions its go.mod requires (vendor/modules.txt lists the
// same ones when it is consistent; code edited inside vendor/ is not seen).
// A module whose go line is older than 1.14 is built that way by go test too.
func ModFlags(moduleRoot string) []string {
	if st, err := os.Stat(filepath.Join(moduleRoot, "vendor")); err == nil && st.IsDir() {
		return []string{"-mod=mod"}
	}
	return nil
}

// MainModule returns the main module of a load (the one go/packages marks
// Main), or nil when no package belongs to it.
func MainModule(pkgs []*packages.Package) *packages.Module {
	var found *packages.Module
	packages.Visit(pkgs, func(p *packages.Package) bool {
		if found == nil && p.Module != nil && p.Module.Main {
			found = p.Module
		}
		return found == nil
	}, nil)
	return found
}

// SSA returns the whole program in SSA form, built on the first call
// (generic functions instantiated per instance) and shared afterwards.
// It needs every package's syntax, which Packages loads.
func (p *Program) SSA() *ssa.Program {
	p.ssaOnce.Do(func() {
		prog, _ := ssautil.AllPackages(p.Roots, ssa.InstantiateGenerics)
		prog.Build()
		p.ssa = prog
	})
	return p.ssa
}

// Within reports whether path lies in the directory root.
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
