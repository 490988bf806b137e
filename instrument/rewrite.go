package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// fileRewriter rewrites one file. Rewriting is textual: the output is the
// original source with some nodes replaced by generated text, so comments
// and formatting survive. Every copied stretch of original text is preceded
// by a position marker; finish turns the markers whose line no longer
// matches into /*line*/ directives.
type fileRewriter struct {
	fset *token.FileSet
	tf   *token.File
	file *ast.File
	src  []byte
	info *types.Info
	pkg  *types.Package

	lineName string          // file name written in line directives
	names    *load.Namer     // names site positions (package load)
	rtImport string          // import path of the runtime
	tables   bool            // import the sites module (a _test.go file: sitesImported)
	helpers  []string        // functions that call Helper(), by frame name (noteHelper)
	tests    map[string]bool // test functions to wrap; nil = all
	pkgs     map[string]bool // import paths of the packages instrumented (nil: this one only)
	poolOnly bool            // rewrite sync.Pool's Get and Put only (poolonly.go)

	sites      []pct.SiteInfo
	shared     map[*types.Var]bool    // locals whose address escapes
	locals     localPlan              // escaping locals registered with Local (profiling)
	ntmp       int                    // counter for generated names
	edits      int                    // number of rewritten constructs
	clockFuncs map[string]string      // body-less functions linked to a real clock: name -> target (clock.go)
	keep       map[string]bool        // expressions kept alive with `var _ = X`
	litHelpers map[*ast.ExprStmt]bool // Helper() statements of function literals (litHelperCalls)
	readLate   map[ast.Expr]bool      // expressions before a call of their statement (evalorder.go)
}

func newFileRewriter(fset *token.FileSet, f *ast.File, src []byte, info *types.Info, pkg *types.Package) *fileRewriter {
	r := &fileRewriter{
		fset: fset, tf: fset.File(f.Pos()), file: f, src: src, info: info, pkg: pkg,
		keep: map[string]bool{}, readLate: readsBeforeCalls(f, info),
	}
	var profiled map[*types.Var]bool
	r.shared, profiled = sharedLocals(f, info)
	r.planLocals(profiled)
	r.litHelpers = r.litHelperCalls()
	return r
}

// marker characters delimit position markers in rendered text: NUL offset NUL.
const markerByte = 0

func (r *fileRewriter) off(p token.Pos) int { return r.tf.Offset(p) }

// raw returns original text [from, to), preceded by a position marker.
func (r *fileRewriter) raw(from, to token.Pos) string {
	a, b := r.off(from), r.off(to)
	if a >= b {
		return ""
	}
	return "\x00" + strconv.Itoa(a) + "\x00" + string(r.src[a:b])
}

// text is the original text of n.
func (r *fileRewriter) text(n ast.Node) string { return r.raw(n.Pos(), n.End()) }

// tmp returns a fresh generated identifier.
func (r *fileRewriter) tmp(prefix string) string {
	r.ntmp++
	return fmt.Sprintf("__gopct_%s%d", prefix, r.ntmp)
}

// rt returns a qualified runtime identifier and counts an edit.
func (r *fileRewriter) rt(name string) string {
	r.edits++
	return runtimeName + "." + name
}

// children calls f for each direct child of n in source order, skipping
// comments (copied as part of the text between children).
func children(n ast.Node, f func(ast.Node)) {
	ast.Inspect(n, func(c ast.Node) bool {
		if c == nil || c == n {
			return c == n
		}
		if _, ok := c.(*ast.CommentGroup); !ok {
			f(c)
		}
		return false
	})
}

// splice renders n: its original text with each child rendered by node.
func (r *fileRewriter) splice(n ast.Node) string {
	return r.spliceWith(n, r.node)
}

// spliceWith renders n's text with each child rendered by render.
func (r *fileRewriter) spliceWith(n ast.Node, render func(ast.Node) string) string {
	var b strings.Builder
	pos := n.Pos()
	children(n, func(c ast.Node) {
		if c.Pos() < pos || c.End() > n.End() {
			return // out-of-order child (never for expressions and statements)
		}
		b.WriteString(r.raw(pos, c.Pos()))
		b.WriteString(render(c))
		pos = c.End()
	})
	b.WriteString(r.raw(pos, n.End()))
	return b.String()
}

// node renders any node in its default context.
func (r *fileRewriter) node(n ast.Node) string {
	switch n := n.(type) {
	case ast.Expr:
		return r.expr(n)
	case ast.Stmt:
		return r.stmt(n, false)
	}
	return r.splice(n)
}

// rewriteFile returns the rewritten file, and whether anything changed.
func (r *fileRewriter) rewriteFile() ([]byte, bool, error) {
	f := r.file
	if !r.poolOnly {
		r.findClockLinks()
	}
	var b strings.Builder
	nameEnd := f.Name.End()
	b.WriteString(r.raw(r.tf.Pos(0), nameEnd))
	b.WriteString("; import " + runtimeName + " " + strconv.Quote(r.rtImport))
	if r.tables {
		b.WriteString("; import _ " + strconv.Quote(SitesModule))
	}
	pos := nameEnd
	for _, d := range f.Decls {
		if r.poolOnly {
			b.WriteString(r.raw(pos, d.Pos()) + r.poolNode(d))
		} else {
			b.WriteString(r.unlinkClocks(r.raw(pos, d.Pos()), d))
			b.WriteString(r.decl(d))
		}
		pos = d.End()
	}
	b.WriteString(r.unlinkClocks(r.raw(pos, r.tf.Pos(r.tf.Size())), nil))
	if r.edits == 0 {
		return nil, false, nil
	}
	keep := sortedKeys(r.keep)
	if len(keep) > 0 {
		b.WriteString("\n\n// Keep imports used whose calls were rewritten.\nvar (\n")
		for _, k := range keep {
			b.WriteString("\t_ = " + k + "\n")
		}
		b.WriteString(")\n")
	}
	out := "//line " + r.lineName + ":1\n" + r.finish(b.String())
	return []byte(out), true, nil
}

// decl renders a top-level declaration.
func (r *fileRewriter) decl(d ast.Decl) string {
	fd, ok := d.(*ast.FuncDecl)
	if !ok {
		return r.splice(d)
	}
	if fd.Body == nil {
		if s := r.clockFuncDecl(fd); s != "" {
			return s
		}
		return r.text(fd)
	}
	if name, ok := r.testFunc(fd); ok {
		return r.wrapTest(fd, name)
	}
	r.noteHelper(fd)
	return r.raw(fd.Pos(), fd.Body.Pos()) + r.stmt(fd.Body, false)
}

// noteHelper records fd when its body calls a Helper() method (t.Helper()
// of testing, or a TestingT's, as testify's assertions do): a failure
// reported inside it is reported at its caller, as go test does
// (pct.RegisterHelpers). Function literals inside fd do not count: Helper
// marks the function that calls it.
func (r *fileRewriter) noteHelper(fd *ast.FuncDecl) {
	fn, _ := r.info.Defs[fd.Name].(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	calls := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			calls = calls || r.isHelperCall(n)
		}
		return !calls
	})
	if calls {
		r.helpers = append(r.helpers, frameName(fn))
	}
}

// litHelperCalls are the Helper() statements inside function literals:
// each gets a call to pct.NoteHelper after it, which registers the literal
// as a helper when it runs (its frame name is the compiler's, so it cannot
// be listed like noteHelper's functions).
func (r *fileRewriter) litHelperCalls() map[*ast.ExprStmt]bool {
	calls := map[*ast.ExprStmt]bool{}
	var visit func(n ast.Node, inLit bool)
	visit = func(n ast.Node, inLit bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				if m != n {
					visit(m.Body, true)
					return false
				}
			case *ast.ExprStmt:
				if inLit && r.isHelperCall(m.X) {
					calls[m] = true
				}
			}
			return true
		})
	}
	visit(r.file, false)
	return calls
}

// isHelperCall says whether e is a call of a Helper() method.
func (r *fileRewriter) isHelperCall(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Helper" && r.info.Selections[sel] != nil
}

// frameName is fn's name as runtime.Frame.Function gives it:
// "path.F", "path.T.M" or "path.(*T).M" (type arguments aside).
func frameName(fn *types.Func) string {
	prefix := fn.Pkg().Path() + "."
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return prefix + fn.Name()
	}
	t, ptr := recv.Type(), false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	named, ok := t.(*types.Named)
	if !ok {
		return prefix + fn.Name()
	}
	if ptr {
		return prefix + "(*" + named.Obj().Name() + ")." + fn.Name()
	}
	return prefix + named.Obj().Name() + "." + fn.Name()
}

// finish replaces markers: a marker becomes a /*line*/ directive when the
// line the compiler would assign to the following text differs from its
// original line. Generated text never contains newlines, so lines drift only
// where original text was moved.
func (r *fileRewriter) finish(s string) string {
	var b strings.Builder
	line := 1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == markerByte {
			j := strings.IndexByte(s[i+1:], markerByte)
			off, _ := strconv.Atoi(s[i+1 : i+1+j])
			i += j + 1
			p := r.tf.PositionFor(r.tf.Pos(off), false)
			if p.Line != line {
				// The space keeps the comment from merging with a
				// preceding '/' into a line comment.
				fmt.Fprintf(&b, " /*line %s:%d:%d*/", r.lineName, p.Line, p.Column)
				line = p.Line
			}
			continue
		}
		if c == '\n' {
			line++
		}
		b.WriteByte(c)
	}
	return b.String()
}
