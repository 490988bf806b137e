package instrument

import (
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gopct/gopct/pct"
)

// Pools in code gopct does not instrument. A library that hands out
// memory recycled through a sync.Pool of its own (a byte buffer, a request
// context) orders each reuse by the pool: the goroutine that Put the
// object happens before the one whose Get returns it (sync's race build
// says so to go test -race). Uninstrumented, that Put and Get are
// invisible, and the instrumented code's accesses to the recycled memory
// by the two goroutines look unordered: false races (fasthttp's pipeline
// client over bytebufferpool in sweep regr36, go-yamux over
// go-buffer-pool in the sweep of stop 32, both fixed by instrumenting
// those modules by name).
//
// With -deps auto, every other module's package that the tests import and
// whose code calls (*sync.Pool).Get or Put is rewritten in those calls
// only: they become pct.DepPoolGet and pct.DepPoolPut, the edge, and
// nothing else of the module changes (no scheduling point, no memory
// access site: its goroutines and accesses stay what they were). Only the
// goroutine that holds the turn takes the edge; any other (one handed off
// while blocked inside the module, perhaps holding the module's own mutex,
// or one the module started) runs the call natively, as it runs the rest
// of that code. The module is copied as -deps modules are (the go command
// refuses overlays in the module cache), and a replace of it in the
// user's go.mod gives way to the copy's (dropReplaced). Only more
// happens-before comes of it, so no report can appear that did not
// before; and an object the holder Puts in an execution is handed back
// only in that execution, as PoolGet does for the user's pools.

// poolPackages returns the packages of modules other than the main
// module, the standard library and deps that roots import (transitively)
// and whose code calls sync.Pool's Get or Put.
func poolPackages(roots []*packages.Package, deps map[string]bool) []*packages.Package {
	var out []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) {
		m := p.Module
		if m == nil || m.Main || deps[m.Path] || p.TypesInfo == nil || !callsPool(p) {
			return
		}
		out = append(out, p)
	})
	return out
}

// callsPool says whether p's code calls sync.Pool's Get or Put.
func callsPool(p *packages.Package) bool {
	found := false
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && poolMethod(p.TypesInfo, c) != nil {
				found = true
			}
			return !found
		})
	}
	return found
}

// poolMethod returns the selection of c's callee when c calls sync.Pool's
// Get or Put as a method, nil otherwise.
func poolMethod(info *types.Info, c *ast.CallExpr) *types.Selection {
	x, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := info.Selections[x]
	if sel == nil || sel.Kind() != types.MethodVal {
		return nil
	}
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return nil
	}
	if k := funcKey(fn); k != "sync.Pool.Get" && k != "sync.Pool.Put" {
		return nil
	}
	return sel
}

// poolModules returns the modules of pkgs, as dependency modules to copy
// (depModules, given their paths).
func poolModules(pkgs []*packages.Package, main string) []*depModule {
	paths := map[string]bool{}
	for _, p := range pkgs {
		paths[p.Module.Path] = true
	}
	return depModules(pkgs, paths, main)
}

// rewritePools rewrites the pool calls of r.poolPkgs' files into
// WorkDir/pool, adding their sites and overlay entries.
func (r *Result) rewritePools(replace map[string]string) error {
	names := r.Namer()
	for _, p := range r.poolPkgs {
		for i, f := range p.Syntax {
			path := p.CompiledGoFiles[i]
			if depOf(r.deps, path) == nil {
				continue // cgo's generated files
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fr := &fileRewriter{fset: p.Fset, tf: p.Fset.File(f.Pos()), file: f, src: src, info: p.TypesInfo, pkg: p.Types,
				keep: map[string]bool{}, lineName: path, names: names, rtImport: RuntimeModule, sites: r.Sites, poolOnly: true}
			out, changed, err := fr.rewriteFile()
			if err != nil {
				return err
			}
			r.Sites = fr.sites
			if !changed {
				continue
			}
			dst := filepath.Join(r.WorkDir, "pool", strconv.Itoa(len(replace))+"_"+filepath.Base(path))
			if err := writeFile(dst, out); err != nil {
				return err
			}
			replace[path] = dst
		}
	}
	return nil
}

// poolNode renders n with its calls of sync.Pool's Get and Put, and
// nothing else, rewritten.
func (r *fileRewriter) poolNode(n ast.Node) string {
	if c, ok := n.(*ast.CallExpr); ok {
		if s, ok := r.poolCall(c); ok {
			return s
		}
	}
	return r.spliceWith(n, r.poolNode)
}

// poolCall renders p.Get() as PoolGet(site, &p) and p.Put(x) as
// PoolPut(site, &p, x). A pool reached through another package's
// unexported embedded field cannot be named here: left as it is.
func (r *fileRewriter) poolCall(c *ast.CallExpr) (string, bool) {
	sel := poolMethod(r.info, c)
	if sel == nil || r.hiddenPath(sel) || c.Ellipsis.IsValid() {
		return "", false
	}
	x := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	recv := r.fieldPath(r.poolNode(x.X), r.info.TypeOf(x.X), sel.Index(), false)
	parts := []string{r.site(pct.KindOther, c), recv}
	for _, a := range c.Args {
		parts = append(parts, r.poolNode(a))
	}
	r.edits++
	fn := "DepPoolGet"
	if sel.Obj().Name() == "Put" {
		fn = "DepPoolPut"
	}
	return r.rt(fn) + "(" + strings.Join(parts, ", ") + ")", true
}
