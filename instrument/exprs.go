package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/gopct/gopct/pct"
)

// isStatic reports whether e's text must be kept as is: constants, types,
// builtins and package names have no run-time read to instrument (and a
// constant must stay constant).
func (r *fileRewriter) isStatic(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	if ok && (tv.Value != nil || tv.IsType() || tv.IsBuiltin()) {
		return true
	}
	if id, ok := e.(*ast.Ident); ok {
		switch r.info.Uses[id].(type) {
		case *types.PkgName, *types.TypeName, *types.Builtin, *types.Const, *types.Nil:
			return true
		}
	}
	return false
}

// isIODiscard reports whether e is io.Discard, whose ReadFrom recycles
// buffers through a pool gopct does not see (pct/discard.go).
func (r *fileRewriter) isIODiscard(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := r.info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "io" && v.Name() == "Discard"
}

// isLoc reports whether e denotes a memory location that another goroutine
// may access: a package-level variable, a shared local, anything reached
// through a pointer or a slice, or a part of such a location.
func (r *fileRewriter) isLoc(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[e].(*types.Var)
		if !ok || v.IsField() {
			return false
		}
		return localVar(v) == nil || r.shared[v]
	case *ast.ParenExpr:
		return r.isLoc(e.X)
	case *ast.SelectorExpr:
		sel := r.info.Selections[e]
		if sel == nil {
			return r.isLoc(e.Sel) // qualified identifier pkg.V
		}
		if sel.Kind() != types.FieldVal {
			return false
		}
		return sel.Indirect() || r.isLoc(e.X)
	case *ast.IndexExpr:
		switch t := under(r.info.TypeOf(e.X)).(type) {
		case *types.Slice:
			return true
		case *types.Pointer:
			_, ok := under(t.Elem()).(*types.Array)
			return ok
		case *types.Array:
			return r.isLoc(e.X)
		}
	case *ast.StarExpr:
		return !r.isStatic(e)
	}
	return false
}

// expr renders e in value context: locations are read through Load.
func (r *fileRewriter) expr(e ast.Expr) string {
	if r.isStatic(e) {
		return r.text(e)
	}
	if r.isIODiscard(e) {
		r.keep[string(r.src[r.off(e.Pos()):r.off(e.End())])] = true // its import stays used
		return r.rt("DiscardAt") + "(" + r.site(pct.KindOther, e) + ")"
	}
	if r.isLoc(e) {
		return r.load(e)
	}
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return r.selector(e)
	case *ast.IndexExpr:
		if isMap(r.info.TypeOf(e.X)) && r.sameKey(e) {
			return r.rt("MapLoad") + "(" + r.site(pct.KindMapRead, e) + ", " + r.expr(e.X) + ", " + r.expr(e.Index) + ")"
		}
		return r.spliceWith(e, r.operand(e.X, r.isArray(e.X)))
	case *ast.SliceExpr:
		return r.spliceWith(e, r.operand(e.X, r.isArray(e.X)))
	case *ast.CompositeLit:
		return r.compositeLit(e)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.AND:
			if _, ok := ast.Unparen(e.X).(*ast.CompositeLit); ok {
				return r.addrOfLit(e)
			}
			return r.spliceWith(e, r.operand(e.X, true))
		case token.ARROW:
			return r.rt("Recv") + "(" + r.site(pct.KindRecv, e) + ", " + r.expr(e.X) + ")"
		}
	case *ast.CallExpr:
		return r.call(e, ctxValue)
	case *ast.FuncLit:
		return r.raw(e.Pos(), e.Body.Pos()) + r.stmt(e.Body, false)
	}
	return r.splice(e)
}

// load renders a read of location e; read after the calls of its
// statement when it comes before one, as gc reads it (evalorder.go).
func (r *fileRewriter) load(e ast.Expr) string {
	if r.readLate[e] {
		return "(*" + r.rt("LoadPtr") + "(" + r.site(pct.KindRead, e) + ", &" + r.addr(e) + "))"
	}
	return r.rt("Load") + "(" + r.site(pct.KindRead, e) + ", &" + r.addr(e) + ")"
}

// operand returns a child renderer that renders x in address context when
// addr is set (its storage is used, not its value) and other children in
// value context.
func (r *fileRewriter) operand(x ast.Expr, addr bool) func(ast.Node) string {
	return func(c ast.Node) string {
		if c == x && addr {
			return r.addr(x)
		}
		return r.node(c)
	}
}

// addr renders an addressable expression whose storage (not value) is
// used: the outermost location is not read, but the pointers and slices it
// is reached through are.
func (r *fileRewriter) addr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return r.text(e)
	case *ast.ParenExpr:
		return r.spliceWith(e, func(ast.Node) string { return r.addr(e.X) })
	case *ast.SelectorExpr:
		sel := r.info.Selections[e]
		if sel == nil {
			return r.text(e)
		}
		return r.raw(e.Pos(), e.X.Pos()) + r.base(e.X) + r.raw(e.X.End(), e.End())
	case *ast.IndexExpr:
		if isMap(r.info.TypeOf(e.X)) {
			return r.expr(e)
		}
		return r.spliceWith(e, r.operand(e.X, r.isArray(e.X)))
	case *ast.StarExpr:
		return r.spliceWith(e, r.node)
	}
	return r.expr(e)
}

// base renders the operand x of a field selection x.f: read when it is a
// pointer, its storage otherwise.
func (r *fileRewriter) base(x ast.Expr) string {
	if isPtr(r.info.TypeOf(x)) {
		return r.expr(x)
	}
	return r.addr(x)
}

// isArray reports whether x is an array value (indexing or slicing it uses
// its storage).
func (r *fileRewriter) isArray(x ast.Expr) bool {
	_, ok := under(r.info.TypeOf(x)).(*types.Array)
	return ok
}

func isMap(t types.Type) bool {
	_, ok := under(t).(*types.Map)
	return ok
}

// sameKey reports whether a map index m[k] can be passed to the generic map
// helpers: k's type must be the key type (or an untyped constant), or
// inference would fail.
func (r *fileRewriter) sameKey(e *ast.IndexExpr) bool {
	m, ok := under(r.info.TypeOf(e.X)).(*types.Map)
	if !ok {
		return false
	}
	return r.fits(e.Index, m.Key())
}

// fits reports whether passing e where type t is inferred keeps inference
// working: e's type is identical to t, or e is an untyped constant or nil.
// A typed constant is not: syscall.SIGTERM sent on a chan os.Signal (fx's
// tests) made Send(site, ch, syscall.SIGTERM) infer T as both os.Signal and
// syscall.Signal, which does not compile.
func (r *fileRewriter) fits(e ast.Expr, t types.Type) bool {
	tv := r.info.Types[e]
	if tv.IsNil() || tv.Type != nil && types.Identical(tv.Type, t) {
		return true
	}
	return tv.Value != nil && r.untypedConst(e)
}

// untypedConst says whether constant expression e is untyped in the source
// (go/types records the type it was converted to): a literal, or a named
// untyped constant. Other constant expressions are taken as typed.
func (r *fileRewriter) untypedConst(e ast.Expr) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	c, ok := r.info.Uses[id].(*types.Const)
	return ok && untyped(c.Type())
}

// selector renders x.f in value context when it is not itself a location:
// a method value, or a field of a non-addressable value.
func (r *fileRewriter) selector(e *ast.SelectorExpr) string {
	sel := r.info.Selections[e]
	if sel == nil {
		if s := r.randValue(e); s != "" {
			return s
		}
		if s := r.clockValue(e); s != "" {
			return s
		}
		if s := r.timerValue(e); s != "" {
			return s
		}
		if s := r.stackValue(e); s != "" {
			return s
		}
		return r.text(e)
	}
	if sel.Kind() == types.MethodVal {
		if s := r.methodValue(e, sel); s != "" {
			return s
		}
		return r.raw(e.Pos(), e.X.Pos()) + r.recvOperand(e.X, sel) + r.raw(e.X.End(), e.End())
	}
	if sel.Kind() == types.MethodExpr {
		if s := r.methodExpr(e, sel); s != "" {
			return s
		}
		return r.text(e)
	}
	return r.raw(e.Pos(), e.X.Pos()) + r.base(e.X) + r.raw(e.X.End(), e.End())
}

// recvOperand renders the receiver x of a method selection: its storage
// for a pointer method on an addressable value, its value otherwise.
func (r *fileRewriter) recvOperand(x ast.Expr, sel *types.Selection) string {
	if ptrRecv(sel) && !isPtr(r.info.TypeOf(x)) && !types.IsInterface(r.info.TypeOf(x)) {
		return r.addr(x)
	}
	return r.expr(x)
}

// isPure reports whether rendered text contains no instrumentation call,
// so evaluating it twice is harmless.
func isPure(s string) bool { return !strings.Contains(s, runtimeName+".") }
