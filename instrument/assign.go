package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/gopct/gopct/pct"
)

// assign renders an assignment statement.
func (r *fileRewriter) assign(s *ast.AssignStmt, simple bool) string {
	switch s.Tok {
	case token.DEFINE:
		return r.define(s)
	case token.ASSIGN:
		return r.plainAssign(s, simple)
	}
	op := strings.TrimSuffix(s.Tok.String(), "=")
	return r.update(s, s.Lhs[0], op, r.expr(s.Rhs[0]), simple)
}

// define renders a short variable declaration: the left side is declared,
// not stored; comma-ok receives and map reads go to Recv2 and MapLoad2.
func (r *fileRewriter) define(s *ast.AssignStmt) string {
	return r.spliceWith(s, func(c ast.Node) string {
		for _, l := range s.Lhs {
			if c == l {
				return r.text(c)
			}
		}
		return r.rhs(c.(ast.Expr), len(s.Lhs) == 2 && len(s.Rhs) == 1)
	})
}

// rhs renders a right-hand side; commaOk selects the two-value forms.
func (r *fileRewriter) rhs(e ast.Expr, commaOk bool) string {
	if !commaOk {
		return r.expr(e)
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			return r.rt("Recv2") + "(" + r.site(pct.KindRecv, x) + ", " + r.expr(x.X) + ")"
		}
	case *ast.IndexExpr:
		if isMap(r.info.TypeOf(x.X)) && r.sameKey(x) {
			return r.rt("MapLoad2") + "(" + r.site(pct.KindMapRead, x) + ", " + r.expr(x.X) + ", " + r.expr(x.Index) + ")"
		}
	}
	return r.expr(e)
}

// needsStore reports whether assigning to l must go through the runtime.
func (r *fileRewriter) needsStore(l ast.Expr) bool {
	if ix, ok := l.(*ast.IndexExpr); ok && isMap(r.info.TypeOf(ix.X)) {
		return true
	}
	return r.isLoc(l)
}

// plainAssign renders `lhs... = rhs...`. When a left operand needs the
// runtime, Go's two phases are kept: left operands with calls and the right
// side are evaluated into temporaries in source order, then the stores are
// done left to right.
func (r *fileRewriter) plainAssign(s *ast.AssignStmt, simple bool) string {
	commaOk := len(s.Lhs) == 2 && len(s.Rhs) == 1
	any := false
	for _, l := range s.Lhs {
		any = any || r.needsStore(l)
	}
	if !any {
		return r.spliceWith(s, func(c ast.Node) string {
			for _, l := range s.Lhs {
				if c == l {
					return r.addr(l)
				}
			}
			return r.rhs(c.(ast.Expr), commaOk)
		})
	}
	if len(s.Lhs) == 1 {
		return r.assignTo(s.Lhs[0], r.expr(s.Rhs[0]), r.valueType(s.Rhs[0]), "")
	}
	if simple {
		return r.text(s) // no room for temporaries; left unrewritten
	}
	t := &temps{r: r}
	ptrs := make([]string, len(s.Lhs))
	for i, l := range s.Lhs {
		if !isBlank(l) {
			ptrs[i] = r.holdLHS(t, l)
		}
	}
	vals := make([]string, len(s.Lhs))
	types_ := make([]types.Type, len(s.Lhs))
	if len(s.Rhs) == 1 {
		for i := range vals {
			vals[i] = r.tmp("v")
			types_[i] = r.info.TypeOf(s.Rhs[0]).(*types.Tuple).At(i).Type()
		}
		t.stmts = append(t.stmts, strings.Join(vals, ", ")+" := "+r.rhs(s.Rhs[0], commaOk))
	} else {
		for i, e := range s.Rhs {
			vals[i], types_[i] = t.value(e), r.valueType(e)
		}
	}
	stores := make([]string, len(s.Lhs))
	for i, l := range s.Lhs {
		stores[i] = r.assignTo(l, vals[i], types_[i], ptrs[i])
	}
	return t.wrap(strings.Join(stores, "; "))
}

// holdLHS renders the operands of a left operand in Go's first phase: the
// map and key of m[k], the address of anything else. They are held in
// temporaries when they call functions or read shared memory, so that they
// are evaluated once, before the right side.
func (r *fileRewriter) holdLHS(t *temps, l ast.Expr) string {
	if ix, ok := l.(*ast.IndexExpr); ok && isMap(r.info.TypeOf(ix.X)) {
		m, k := r.expr(ix.X), r.expr(ix.Index)
		if hasCall(l) || !isPure(m+k) {
			m, k = t.hold("m", m), t.hold("k", k)
		}
		return m + "\x01" + k
	}
	a := "&" + r.addr(l)
	if hasCall(l) || !isPure(a) {
		a = t.hold("p", a)
	}
	return a
}

// valueType is e's type for the inference check, nil for untyped constants
// and nil (they adapt to their destination). A typed constant keeps its
// type: otter's `cl.err = ErrNotFound`, a constant of a string type stored
// in an error, made Store infer T as both (fits).
func (r *fileRewriter) valueType(e ast.Expr) types.Type {
	tv := r.info.Types[e]
	if tv.IsNil() || tv.Value != nil && r.untypedConst(e) {
		return nil
	}
	return tv.Type
}

// assignTo renders the store of value v (of type vt, nil when untyped) to l.
// held is what holdLHS returned for l, or "".
func (r *fileRewriter) assignTo(l ast.Expr, v string, vt types.Type, held string) string {
	if isBlank(l) {
		return "_ = " + v
	}
	lt := r.info.TypeOf(l)
	fits := vt == nil || types.Identical(vt, lt)
	if ix, ok := l.(*ast.IndexExpr); ok && isMap(r.info.TypeOf(ix.X)) {
		site := r.site(pct.KindMapWrite, l)
		m, k := "", ""
		if held != "" {
			mk := strings.SplitN(held, "\x01", 2)
			m, k = mk[0], mk[1]
		} else {
			m, k = r.expr(ix.X), r.expr(ix.Index)
		}
		if fits && r.sameKey(ix) {
			return r.mapStore(ix.X) + "(" + site + ", " + m + ", " + k + ", " + v + ")"
		}
		return r.rt("XMapStore") + "(" + site + ", " + m + ")(" + k + ", " + v + ")"
	}
	p := held
	if !r.isLoc(l) {
		if strings.HasPrefix(p, "&") {
			return p[1:] + " = " + v
		}
		if p != "" {
			return "*" + p + " = " + v
		}
		return r.addr(l) + " = " + v
	}
	site := r.site(pct.KindWrite, l)
	if p == "" {
		p = "&" + r.addr(l)
	}
	if fits {
		return r.rt("Store") + "(" + site + ", " + p + ", " + v + ")"
	}
	return r.rt("XStore") + "(" + site + ", " + p + ")(" + v + ")"
}

// update renders a read-modify-write `l op= rhs` (rhs already rendered):
// the location's address is taken once, then
// Store(w, p, Load(r, p) op rhs), preemptible between the read and the write.
func (r *fileRewriter) update(s ast.Stmt, l ast.Expr, op, rhs string, simple bool) string {
	native := func() string {
		target := r.addr(l)
		if ix, ok := l.(*ast.IndexExpr); ok && isMap(r.info.TypeOf(ix.X)) {
			// m[k] itself, its map and key read: addr renders a map
			// index as the read of its value, which cannot be assigned
			// (centrifuge's `if c.m[k]--; c.m[k] <= 0`, sweep of stop 34).
			target = r.spliceWith(ix, r.node)
		}
		if _, incdec := s.(*ast.IncDecStmt); incdec {
			return target + op + op
		}
		return target + " " + op + "= " + rhs
	}
	prhs := rhs
	if _, incdec := s.(*ast.IncDecStmt); !incdec {
		prhs = "(" + rhs + ")"
	}
	if ix, ok := l.(*ast.IndexExpr); ok && isMap(r.info.TypeOf(ix.X)) {
		if !r.sameKey(ix) {
			return native()
		}
		m, k := r.expr(ix.X), r.expr(ix.Index)
		pure := !hasCall(ix) && isPure(m) && isPure(k)
		if !pure && simple {
			return native()
		}
		t := &temps{r: r}
		if !pure {
			m, k = t.hold("m", m), t.hold("k", k)
		}
		rd := r.rt("MapLoad") + "(" + r.site(pct.KindMapRead, l) + ", " + m + ", " + k + ")"
		return t.wrap(r.mapStore(ix.X) + "(" + r.site(pct.KindMapWrite, l) + ", " + m + ", " + k + ", " + rd + " " + op + " " + prhs + ")")
	}
	if !r.isLoc(l) {
		return native()
	}
	a := "&" + r.addr(l)
	pure := !hasCall(l) && isPure(a)
	if !pure && simple {
		return native()
	}
	t := &temps{r: r}
	if !pure {
		a = t.hold("p", a)
	}
	rd := r.rt("Load") + "(" + r.site(pct.KindRead, l) + ", " + a + ")"
	return t.wrap(r.rt("Store") + "(" + r.site(pct.KindWrite, l) + ", " + a + ", " + rd + " " + op + " " + prhs + ")")
}

func isBlank(e ast.Expr) bool {
	id := identOf(e)
	return id != nil && id.Name == "_"
}

// hasCall reports whether evaluating e may call a function or communicate,
// so it must not be evaluated twice or moved.
func hasCall(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// mapStore names the runtime's store into the map m: MapStorePlain when its
// key type holds no address, so that MapWalk has no key order to note.
func (r *fileRewriter) mapStore(m ast.Expr) string {
	if mt, ok := under(r.info.TypeOf(m)).(*types.Map); ok && !holdsAddress(mt.Key()) {
		return r.rt("MapStorePlain")
	}
	return r.rt("MapStore")
}

// holdsAddress says whether values of t compare by an address somewhere, as
// the runtime's holdsAddress (pct/keyorder.go) says of a reflect.Type: a
// pointer, channel, unsafe pointer or interface, or a struct or array with
// one inside. A type parameter may be any of them. (A struct or array never
// contains itself but through a pointer, so the recursion ends.)
func holdsAddress(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return true
	}
	switch u := under(t).(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return holdsAddress(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsAddress(u.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	return true // pointer, channel, interface (a key's type is never a map, slice or func)
}
