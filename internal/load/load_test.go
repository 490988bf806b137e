package load

import (
	"errors"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"testing"

	"github.com/gopct/gopct/internal/usererr"
)

// TestNamesArePhysicalAndModuleRelative loads a module whose file has a
// //line directive: site names keep the physical file and line, relative
// to the module root, and test variants are loaded with the package.
func TestNamesArePhysicalAndModuleRelative(t *testing.T) {
	p, err := Packages(Config{Dir: "testdata/mod", Patterns: []string{"./p"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Module == nil || p.Module.Path != "example.com/mod" {
		t.Fatalf("main module %+v", p.Module)
	}
	names := p.Namer(nil)
	var got string
	for _, pkg := range p.Roots {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if inc, ok := n.(*ast.IncDecStmt); ok {
					got = names.Pos(inc.X.Pos())
				}
				return true
			})
		}
	}
	if want := "p/p.go:6:14"; got != want {
		t.Errorf("X++ named %q, want %q", got, want)
	}
	if len(p.Roots) < 2 {
		t.Errorf("loaded %d packages, want the package and its test variant", len(p.Roots))
	}
	if p.SSA() == nil || p.SSA() != p.SSA() {
		t.Error("SSA is not built once and shared")
	}
}

func TestDependencyFileNames(t *testing.T) {
	n := NewNamer(token.NewFileSet(), "/m", []Dep{{Path: "golang.org/x/sync", Version: "v0.1.0", Dir: "/cache/sync@v0.1.0"}})
	for path, want := range map[string]string{
		"/m/a/b.go":                         "a/b.go",
		"/cache/sync@v0.1.0/errgroup/eg.go": "golang.org/x/sync@v0.1.0/errgroup/eg.go",
		"/other/x.go":                       "/other/x.go",
		"/m2/x.go":                          "/m2/x.go",
	} {
		if got := n.File(filepath.FromSlash(path)); got != want {
			t.Errorf("File(%s) = %q, want %q", path, got, want)
		}
	}
	if Within("/m", "/m/../x") || !Within("/m", "/m/..x/y.go") {
		t.Error("Within confuses parent directories and names starting with ..")
	}
}

func TestCoreType(t *testing.T) {
	p, err := Packages(Config{Dir: "testdata/mod", Patterns: []string{"./p"}})
	if err != nil {
		t.Fatal(err)
	}
	scope := p.Roots[0].Types.Scope()
	param := func(fn string) types.Type {
		return scope.Lookup(fn).Type().(*types.Signature).TypeParams().At(0)
	}
	if _, ok := CoreType(param("Slice")).(*types.Slice); !ok {
		t.Errorf("core type of S ~[]E: %v", CoreType(param("Slice")))
	}
	if c := CoreType(param("Any")); c != nil {
		t.Errorf("core type of T any: %v, want none", c)
	}
	if CoreType(nil) != nil {
		t.Error("CoreType(nil) is not nil")
	}
}

func TestOutsideModuleIsUserError(t *testing.T) {
	_, err := Packages(Config{Dir: t.TempDir()})
	var ue *usererr.Error
	if !errors.As(err, &ue) || ue.Reason != usererr.NotInModule {
		t.Fatalf("got %v, want a NotInModule user error", err)
	}
}
