package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// sharedLocals returns the local variables (parameters included) of f that
// other goroutines may access: those whose address is taken (&x, slicing an
// array, a pointer-method call or method value on x) and those captured by a
// function literal and assigned after their declaration. A captured variable
// that is never reassigned cannot take part in a race, so its reads are not
// instrumented. The analysis is syntactic and per file; it over-approximates.
//
// It also returns the profiled locals, the variables the alias analysis
// (over SSA) names as heap allocations at their declaring identifier: the
// shared ones plus every captured variable, even when only read, and the
// variables of an enclosing function used in the body of a range-over-func
// loop (SSA turns that body into a closure).
func sharedLocals(f *ast.File, info *types.Info) (shared, profiled map[*types.Var]bool) {
	e := &escapes{info: info, shared: map[*types.Var]bool{}, captured: map[*types.Var]bool{},
		assigned: map[*types.Var]bool{}, anyCapture: map[*types.Var]bool{}}
	ast.Inspect(f, e.visit)
	for v := range e.captured {
		if e.assigned[v] {
			e.shared[v] = true
		}
	}
	profiled = map[*types.Var]bool{}
	for v := range e.shared {
		profiled[v] = true
	}
	for v := range e.anyCapture {
		profiled[v] = true
	}
	return e.shared, profiled
}

type escapes struct {
	info     *types.Info
	lits     []*ast.FuncLit // enclosing function literals, innermost last
	shared   map[*types.Var]bool
	captured map[*types.Var]bool
	assigned map[*types.Var]bool

	// closures are the enclosing function literals and range-over-func
	// statements, innermost last; anyCapture the variables they capture.
	closures   []ast.Node
	anyCapture map[*types.Var]bool
}

func (e *escapes) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncLit:
		e.lits = append(e.lits, n)
		e.closures = append(e.closures, n)
		ast.Inspect(n.Body, e.visit)
		e.lits = e.lits[:len(e.lits)-1]
		e.closures = e.closures[:len(e.closures)-1]
		return false
	case *ast.Ident:
		e.use(n)
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			e.addrOf(n.X)
		}
	case *ast.SliceExpr:
		if _, ok := under(e.info.TypeOf(n.X)).(*types.Array); ok {
			e.addrOf(n.X)
		}
	case *ast.SelectorExpr:
		// x.M with M on *T takes x's address, unless M is promoted
		// through an embedded pointer (then the pointer is the receiver).
		if sel := e.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal && ptrRecv(sel) && !isPtr(e.info.TypeOf(n.X)) && !sel.Indirect() {
			e.addrOf(n.X)
		}
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			e.assign(l)
		}
	case *ast.IncDecStmt:
		e.assign(n.X)
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			e.assign(n.Key)
			e.assign(n.Value)
		}
		if _, ok := under(e.info.TypeOf(n.X)).(*types.Signature); ok {
			for _, c := range []ast.Node{n.Key, n.Value, n.X} {
				if c != nil {
					ast.Inspect(c, e.visit)
				}
			}
			e.closures = append(e.closures, n)
			ast.Inspect(n.Body, e.visit)
			e.closures = e.closures[:len(e.closures)-1]
			return false
		}
	}
	return true
}

// use records a reference to a local variable from inside a function
// literal that does not declare it.
func (e *escapes) use(id *ast.Ident) {
	v := localVar(e.info.Uses[id])
	if v == nil || len(e.closures) == 0 {
		return
	}
	if c := e.closures[len(e.closures)-1]; v.Pos() < c.Pos() || v.Pos() >= c.End() {
		e.anyCapture[v] = true
	}
	if len(e.lits) == 0 {
		return
	}
	lit := e.lits[len(e.lits)-1]
	if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
		e.captured[v] = true
	}
}

// addrOf marks the variable whose storage x denotes (x, x.f, x[i] on
// arrays) as shared.
func (e *escapes) addrOf(x ast.Expr) {
	if v := e.root(x); v != nil {
		e.shared[v] = true
	}
}

// assign records a write to the variable at the root of x.
func (e *escapes) assign(x ast.Expr) {
	if x == nil {
		return
	}
	if v := e.root(x); v != nil {
		e.assigned[v] = true
	}
}

// root returns the local variable whose own storage holds x, or nil when x
// goes through a pointer, a slice or a map.
func (e *escapes) root(x ast.Expr) *types.Var {
	for {
		switch y := x.(type) {
		case *ast.Ident:
			return localVar(e.info.Uses[y])
		case *ast.ParenExpr:
			x = y.X
		case *ast.SelectorExpr:
			sel := e.info.Selections[y]
			if sel == nil || sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			x = y.X
		case *ast.IndexExpr:
			if _, ok := under(e.info.TypeOf(y.X)).(*types.Array); !ok {
				return nil
			}
			x = y.X
		default:
			return nil
		}
	}
}

// localVar returns obj if it is a variable declared inside a function.
func localVar(obj types.Object) *types.Var {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func isPtr(t types.Type) bool {
	_, ok := under(t).(*types.Pointer)
	return ok
}

// ptrRecv reports whether the selected method has a pointer receiver.
func ptrRecv(sel *types.Selection) bool {
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && isPtr(recv.Type())
}
