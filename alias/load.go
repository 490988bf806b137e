package alias

import (
	"errors"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/internal/usererr"
)

// LoadConfig says what to load.
type LoadConfig = load.Config

// Program is a loaded, type-checked whole program in SSA form, with the
// test packages of the patterns and every dependency down to the runtime.
type Program struct {
	Fset       *token.FileSet
	SSA        *ssa.Program
	ModulePath string // path of the main module
	ModuleDir  string // its root directory; site paths are relative to it

	names   *load.Namer
	pkgs    []*ssa.Package // every package of the program
	modPkgs []*ssa.Package // packages of the main module (incl. test variants)
	anchors *anchors
}

// LoadError reports packages that do not build; Errors are the compiler's
// messages.
type LoadError struct{ Errors []string }

func (e *LoadError) Error() string {
	return "packages do not compile:\n\t" + strings.Join(e.Errors, "\n\t")
}

// ErrNoModule is returned when the directory is outside any module.
var ErrNoModule = errors.New("not inside a Go module (no go.mod found); gopct analyses the packages of a module")

// Load type-checks the packages and their tests from source (package
// load) and builds SSA for the whole program, instantiating generic
// functions.
func Load(cfg LoadConfig) (*Program, error) {
	lp, err := load.Packages(cfg)
	var ue *usererr.Error
	switch {
	case errors.As(err, &ue) && ue.Reason == usererr.NotInModule:
		return nil, ErrNoModule
	case err != nil:
		return nil, &LoadError{Errors: []string{err.Error()}}
	}
	if errs := loadErrors(lp.Roots); len(errs) > 0 {
		return nil, &LoadError{Errors: errs}
	}
	return FromLoad(lp), nil
}

// loadErrors collects the errors of all packages, deduplicated, in order.
func loadErrors(pkgs []*packages.Package) []string {
	var errs []string
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if msg := e.Error(); !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	})
	return errs
}

// FromLoad builds the program of a load that type-checked (the
// instrumenter's load, so that both name the same sites). Its sites and
// variables are named by lp's Namer.
func FromLoad(lp *load.Program) *Program {
	prog := lp.SSA()
	mod := lp.Module
	p := &Program{
		Fset:       lp.Fset,
		SSA:        prog,
		ModulePath: mod.Path,
		ModuleDir:  mod.Dir,
		names:      lp.Namer(nil),
		anchors:    newAnchors(prog.Fset),
	}
	p.pkgs = prog.AllPackages()
	modTypes := map[*types.Package]bool{}
	packages.Visit(lp.Roots, nil, func(pkg *packages.Package) {
		if pkg.Module == nil || pkg.Module.Path != mod.Path || pkg.Types == nil {
			return
		}
		for _, f := range pkg.Syntax {
			if p.names.InModule(p.Fset.File(f.Pos()).Name()) {
				p.anchors.addFile(f)
				modTypes[pkg.Types] = true
			}
		}
	})
	for _, sp := range p.pkgs {
		if modTypes[sp.Pkg] {
			p.modPkgs = append(p.modPkgs, sp)
		}
	}
	return p
}

// Position renders pos as a site name, "file:line:col" with the file
// relative to the module root (package load's convention).
func (p *Program) Position(pos token.Pos) string { return p.names.Pos(pos) }

// Tests returns the test, example and fuzz functions of the module's test
// files, in package and source order.
func (p *Program) Tests() []*ssa.Function {
	var out []*ssa.Function
	for _, sp := range p.modPkgs {
		for _, m := range sortedMembers(sp) {
			fn, ok := m.(*ssa.Function)
			if ok && isTestFunc(p.Fset, fn) {
				out = append(out, fn)
			}
		}
	}
	return out
}

func isTestFunc(fset *token.FileSet, fn *ssa.Function) bool {
	if !strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go") {
		return false
	}
	name := fn.Name()
	for _, prefix := range []string{"Test", "Example", "Fuzz"} {
		rest, ok := strings.CutPrefix(name, prefix)
		if ok && (rest == "" || !isLower(rest[0])) {
			return true
		}
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// sortedMembers lists a package's members in source order.
func sortedMembers(sp *ssa.Package) []ssa.Member {
	ms := make([]ssa.Member, 0, len(sp.Members))
	for _, m := range sp.Members {
		ms = append(ms, m)
	}
	sortMembers(ms)
	return ms
}

// CountInstructions counts the SSA instructions of every function of the
// whole program (the size measure of the benchmark).
func (p *Program) CountInstructions() int {
	n := 0
	for fn := range ssautil.AllFunctions(p.SSA) {
		for _, b := range fn.Blocks {
			n += len(b.Instrs)
		}
	}
	return n
}

// moduleFuncs returns every non-generic function and method declared by
// the module's packages.
func (p *Program) moduleFuncs() []*ssa.Function {
	var out []*ssa.Function
	for _, sp := range p.modPkgs {
		for _, m := range sortedMembers(sp) {
			switch m := m.(type) {
			case *ssa.Function:
				if m.TypeParams().Len() == 0 {
					out = append(out, m)
				}
			case *ssa.Type:
				out = append(out, p.methodsOf(m.Type())...)
			}
		}
	}
	return out
}

func (p *Program) methodsOf(t types.Type) []*ssa.Function {
	if n, ok := t.(*types.Named); ok && n.TypeParams().Len() > 0 {
		return nil
	}
	var out []*ssa.Function
	for _, tt := range []types.Type{t, types.NewPointer(t)} {
		ms := p.SSA.MethodSets.MethodSet(tt)
		for i := range ms.Len() {
			sel := ms.At(i)
			if len(sel.Index()) != 1 { // promoted: the embedded type's code
				continue
			}
			if fn := p.SSA.MethodValue(sel); fn != nil && fn.Synthetic == "" {
				out = append(out, fn)
			}
		}
	}
	return out
}
