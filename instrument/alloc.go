package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// Profiling support: the runtime's profiling mode names the memory every
// executed site touches, with the names of the alias analysis (alias/):
//
//   - an allocation is named by the start of its expression, "file:line:col"
//     (module-relative): each allocation expression is wrapped in
//     Alloc(site, EXPR), a generic identity, with a KindAlloc site at that
//     position;
//   - an escaping local variable or parameter is named by its declaring
//     identifier: Local(site, &x) runs right after its declaration;
//   - a package-level variable is named "importpath.Name": a generated file
//     per package registers each one with Global from an init function.

// ---- allocations ----

// allocWrap returns Alloc(site, text).
func (r *fileRewriter) allocWrap(site, text string) string {
	return r.rt("Alloc") + "(" + site + ", " + text + ")"
}

// allocsMemory reports whether a composite literal of type t allocates a
// variable of its own: slice literals (the backing array) and map literals.
// Struct and array literals are values; they are variables only through &
// or as the value of a variable.
func allocsMemory(t types.Type) bool {
	switch load.CoreType(t).(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// compositeLit renders a composite literal in value context: a slice or
// map literal is wrapped in Alloc; an elided-type literal inside an outer
// literal ([]*T{{...}}, [][]int{{...}}) is wrapped with its type written
// out (&T{...}, []int{...}) when the type can be printed so that it denotes
// the same type at that position, and left alone otherwise.
func (r *fileRewriter) compositeLit(lit *ast.CompositeLit) string {
	t := r.info.TypeOf(lit)
	if lit.Type != nil {
		if !allocsMemory(t) {
			return r.splice(lit)
		}
		site := r.site(pct.KindAlloc, lit)
		return r.allocWrap(site, r.splice(lit))
	}
	// Elided type: the recorded type is *T for an elided &T{...}.
	prefix := ""
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		prefix, t = "&", p.Elem()
	} else if !allocsMemory(t) {
		return r.splice(lit)
	}
	typ, ok := r.typeText(t, lit.Pos())
	if !ok {
		return r.splice(lit)
	}
	site := r.site(pct.KindAlloc, lit)
	return r.allocWrap(site, prefix+typ+r.splice(lit))
}

// addrOfLit renders &T{...} (e, possibly with parentheses around the
// literal) as Alloc(site, &T{...}); the literal itself is not wrapped (it
// must stay addressable), its elements are rendered as usual.
func (r *fileRewriter) addrOfLit(e *ast.UnaryExpr) string {
	site := r.site(pct.KindAlloc, e)
	var inner func(n ast.Node) string
	inner = func(n ast.Node) string {
		switch n := n.(type) {
		case *ast.ParenExpr:
			return r.spliceWith(n, inner)
		case *ast.CompositeLit:
			return r.splice(n)
		}
		return r.node(n)
	}
	return r.allocWrap(site, r.spliceWith(e, inner))
}

// allocBuiltin renders new(...), make(...) and string-to-slice
// conversions as Alloc(site, CALL), and append(s, v...) as
// XAppend(site, s)(v...), which registers the result only when append
// allocated a new backing array (registering s's own array again would
// rename the variable it belongs to).
func (r *fileRewriter) allocBuiltin(c *ast.CallExpr) string {
	site := r.site(pct.KindAlloc, c)
	if id := identOf(ast.Unparen(c.Fun)); id != nil && id.Name == "append" && r.appendSplits(c) {
		args := r.exprs(c.Args)
		return r.rt("XAppend") + "(" + site + ", " + args[0] + ")(" + strings.Join(args[1:], ", ") + ellipsis(c) + ")"
	}
	if id := identOf(ast.Unparen(c.Fun)); id != nil && id.Name == "make" && isChan(r.info.TypeOf(c)) {
		return r.rt("MakeChan") + "(" + site + ", " + r.splice(c) + ")"
	}
	return r.allocWrap(site, r.splice(c))
}

func isChan(t types.Type) bool {
	_, ok := under(t).(*types.Chan)
	return ok
}

// appendSplits reports whether append(s, v...) can be written
// XAppend(site, s)(v...): s is one single-valued argument and the spread
// form does not append a string to a byte slice.
func (r *fileRewriter) appendSplits(c *ast.CallExpr) bool {
	if len(c.Args) == 0 {
		return false
	}
	if _, ok := r.info.TypeOf(c.Args[0]).(*types.Tuple); ok {
		return false
	}
	if c.Ellipsis.IsValid() {
		b, ok := under(r.info.TypeOf(c.Args[len(c.Args)-1])).(*types.Basic)
		if ok && b.Info()&types.IsString != 0 {
			return false
		}
	}
	return true
}

// isStringToSlice reports whether the conversion c turns a string into a
// byte or rune slice, which allocates a fresh backing array.
func (r *fileRewriter) isStringToSlice(c *ast.CallExpr) bool {
	if len(c.Args) != 1 {
		return false
	}
	if _, ok := under(r.info.TypeOf(c)).(*types.Slice); !ok {
		return false
	}
	b, ok := under(r.info.TypeOf(c.Args[0])).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// typeText prints t as Go source valid at pos: packages are qualified with
// this file's import names. The text is accepted only if it type-checks at
// pos to a type identical to t (a shadowed name, an unexported field of
// another package's struct type or a package imported under no name in
// this file makes it fail).
func (r *fileRewriter) typeText(t types.Type, pos token.Pos) (string, bool) {
	unknown := false
	s := types.TypeString(t, func(p *types.Package) string {
		if p == r.pkg {
			return ""
		}
		for _, imp := range r.file.Imports {
			if pn := r.info.PkgNameOf(imp); pn != nil && pn.Imported() == p {
				switch pn.Name() {
				case "_":
					continue
				case ".":
					return ""
				}
				return pn.Name()
			}
		}
		unknown = true
		return p.Name()
	})
	if unknown || strings.ContainsAny(s, "\n\x00") {
		return "", false
	}
	tv, err := types.Eval(r.fset, r.pkg, pos, s)
	if err != nil || !tv.IsType() || !types.Identical(tv.Type, t) {
		return "", false
	}
	return s, true
}

// ---- escaping locals ----

// localPlan says where each escaping local is registered: vars lists the
// variables to register at the start of a block or clause body (parameters
// and named results at function entry, variables of if/for/switch headers,
// range loops and select cases at the start of each body in their scope);
// variables of `x := ...` and `var` statements are registered right after
// the statement.
type localPlan struct {
	profiled map[*types.Var]bool
	entry    map[ast.Node][]*types.Var // *ast.BlockStmt, *ast.CaseClause, *ast.CommClause
	site     map[*types.Var]string     // one site per variable
}

// planLocals computes where the profiled locals are registered.
func (r *fileRewriter) planLocals(profiled map[*types.Var]bool) {
	p := &r.locals
	p.profiled, p.entry, p.site = profiled, map[ast.Node][]*types.Var{}, map[*types.Var]string{}
	if len(profiled) == 0 {
		return
	}
	add := func(at ast.Node, vs []*types.Var) {
		for _, v := range vs {
			if profiled[v] && v.Name() != "_" {
				p.entry[at] = append(p.entry[at], v)
			}
		}
	}
	var ifChain func(s *ast.IfStmt, vs []*types.Var)
	ifChain = func(s *ast.IfStmt, vs []*types.Var) {
		add(s.Body, vs)
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			add(e, vs)
		case *ast.IfStmt:
			ifChain(e, vs)
		}
	}
	ast.Inspect(r.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				add(n.Body, r.fieldVars(n.Recv, n.Type.Params, n.Type.Results))
			}
		case *ast.FuncLit:
			add(n.Body, r.fieldVars(n.Type.Params, n.Type.Results))
		case *ast.IfStmt:
			if vs := r.declared(n.Init); len(vs) > 0 {
				ifChain(n, vs)
			}
		case *ast.SwitchStmt:
			vs := r.declared(n.Init)
			for _, cl := range n.Body.List {
				add(cl, vs)
			}
		case *ast.TypeSwitchStmt:
			vs := r.declared(n.Init)
			for _, cl := range n.Body.List {
				add(cl, vs)
				if v, ok := r.info.Implicits[cl].(*types.Var); ok {
					add(cl, []*types.Var{v})
				}
			}
		case *ast.ForStmt:
			add(n.Body, r.declared(n.Init))
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				add(n.Body, r.defs(n.Key, n.Value))
			}
		case *ast.CommClause:
			add(n, r.declared(n.Comm))
		}
		return true
	})
}

// fieldVars returns the variables declared by parameter lists.
func (r *fileRewriter) fieldVars(lists ...*ast.FieldList) []*types.Var {
	var vs []*types.Var
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			for _, name := range f.Names {
				vs = append(vs, r.defs(name)...)
			}
		}
	}
	return vs
}

// declared returns the variables a statement declares: a short variable
// declaration (new variables only) or a var declaration.
func (r *fileRewriter) declared(s ast.Stmt) []*types.Var {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			return r.defs(s.Lhs...)
		}
	case *ast.DeclStmt:
		var vs []*types.Var
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, spec := range g.Specs {
				for _, name := range spec.(*ast.ValueSpec).Names {
					vs = append(vs, r.defs(name)...)
				}
			}
		}
		return vs
	}
	return nil
}

// defs returns the variables the identifiers among es define.
func (r *fileRewriter) defs(es ...ast.Expr) []*types.Var {
	var vs []*types.Var
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok {
			if v, ok := r.info.Defs[id].(*types.Var); ok {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// registerLocals renders `; Local(site, &x)...` for the profiled variables
// among vs, each prefixed by "; " (empty when there are none).
func (r *fileRewriter) registerLocals(vs []*types.Var) string {
	var b strings.Builder
	for _, v := range vs {
		if !r.locals.profiled[v] || v.Name() == "_" {
			continue
		}
		site, ok := r.locals.site[v]
		if !ok {
			site = r.siteAt(pct.KindAlloc, v.Pos(), v.Name())
			r.locals.site[v] = site
		}
		b.WriteString("; " + r.rt("Local") + "(" + site + ", &" + v.Name() + ")")
	}
	return b.String()
}

// entryLocals renders the registrations at the start of a block or clause
// body, each followed by "; ".
func (r *fileRewriter) entryLocals(n ast.Node) string {
	s := r.registerLocals(r.locals.entry[n])
	if s == "" {
		return ""
	}
	return " " + strings.TrimPrefix(s, "; ") + "; "
}

// block renders a block statement, registering the escaping locals planned
// at its start.
func (r *fileRewriter) block(s *ast.BlockStmt) string {
	if len(r.locals.entry[s]) == 0 {
		return r.splice(s)
	}
	return r.raw(s.Lbrace, s.Lbrace+1) + r.entryLocals(s) + r.stmtsIn(s.Lbrace+1, s.End(), s.List)
}

// caseClause renders a switch case clause, registering the escaping locals
// planned at the start of its body.
func (r *fileRewriter) caseClause(s *ast.CaseClause) string {
	if len(r.locals.entry[s]) == 0 {
		return r.splice(s)
	}
	var b strings.Builder
	pos := s.Pos()
	for _, e := range s.List {
		b.WriteString(r.raw(pos, e.Pos()))
		b.WriteString(r.expr(e))
		pos = e.End()
	}
	b.WriteString(r.raw(pos, s.Colon+1))
	b.WriteString(r.entryLocals(s))
	b.WriteString(r.stmtsIn(s.Colon+1, s.End(), s.Body))
	return b.String()
}

// ---- package-level variables ----

// globalsFile names the generated file registering the package-level
// variables of the files of one kind in one directory.
func globalsFile(test, external bool) string {
	switch {
	case external:
		return "zz_gopct_globals_x_test.go"
	case test:
		return "zz_gopct_globals_test.go"
	}
	return "zz_gopct_globals.go"
}

// fileGlobals returns the names of the package-level variables f declares
// (blank ones excluded), in source order.
func fileGlobals(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, name := range spec.(*ast.ValueSpec).Names {
				if name.Name != "_" {
					names = append(names, name.Name)
				}
			}
		}
	}
	return names
}

// globalsSource generates a file of package pkgName registering the named
// package-level variables of package pkgPath with Global.
func globalsSource(pkgName, pkgPath, rtImport string, names []string) []byte {
	var b strings.Builder
	b.WriteString("// Code generated by gopct instrument. DO NOT EDIT.\n\n")
	b.WriteString("package " + pkgName + "\n\n")
	b.WriteString("import " + runtimeName + " \"" + rtImport + "\"\n\n")
	b.WriteString("func init() {\n")
	for _, n := range names {
		b.WriteString("\t" + runtimeName + ".Global(\"" + pkgPath + "." + n + "\", &" + n + ")\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// globalFiles collects the package-level variables of the instrumented
// files, one generated file per directory and kind: the package's own
// files (zz_gopct_globals.go, compiled in every variant), its in-package
// test files (zz_gopct_globals_test.go, only in the test variant, where the
// variables those files declare exist) and the external test package
// (zz_gopct_globals_x_test.go, package p_test).
type globalFiles struct {
	order  []string
	groups map[string]*globalGroup // by the generated file's path
}

type globalGroup struct {
	pkgName, pkgPath string
	names            []string
	oldLang          bool // the module's language is older than minLang
}

func newGlobalFiles() *globalFiles { return &globalFiles{groups: map[string]*globalGroup{}} }

// add records the package-level variables of one unit.
func (g *globalFiles) add(u unit) {
	names := fileGlobals(u.file)
	if len(names) == 0 {
		return
	}
	test := strings.HasSuffix(u.path, "_test.go")
	external := test && u.pkg.Types != nil && strings.HasSuffix(u.pkg.Types.Name(), "_test") && strings.HasSuffix(u.pkg.PkgPath, "_test")
	path := filepath.Join(filepath.Dir(u.path), globalsFile(test, external))
	grp := g.groups[path]
	if grp == nil {
		grp = &globalGroup{pkgName: u.pkg.Types.Name(), pkgPath: u.pkg.PkgPath, oldLang: moduleOld(u.pkg)}
		g.groups[path] = grp
		g.order = append(g.order, path)
	}
	grp.names = append(grp.names, names...)
}

// write writes the generated files into workDir and adds them to the
// overlay (they exist only there).
func (g *globalFiles) write(workDir, rtImport string, replace map[string]string) error {
	for i, path := range g.order {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s exists: gopct generates a file of that name", path)
		}
		grp := g.groups[path]
		dst := filepath.Join(workDir, "globals", fmt.Sprintf("%d_%s", i, filepath.Base(path)))
		src := globalsSource(grp.pkgName, grp.pkgPath, rtImport, grp.names)
		if grp.oldLang {
			src = raiseLang(src, src)
		}
		if err := writeFile(dst, src); err != nil {
			return err
		}
		replace[path] = dst
	}
	return nil
}
