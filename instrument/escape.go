package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// sharedLocals returns the local variables (parameters included) of f that
// other goroutines may access: those whose address is taken (&x, slicing an
// array, a pointer-method call or method value on x) and those captured by a
// function literal that may run in another goroutine and assigned after
// their declaration. A captured variable that is never reassigned cannot
// take part in a race, so its reads are not instrumented. The analysis is
// syntactic and per file; it over-approximates. Two kinds of capture are
// not counted, since they cannot reach another goroutine:
//   - by a function literal called where it is written, `func() {...}()`
//     or `defer func() {...}()` (not `go`): it runs in the goroutine that
//     declared the variable (a literal nested in it is judged on its own);
//   - of a three-clause loop's variable by its body, in a file with
//     per-iteration loop variables (go1.22 on), through assignments of the
//     loop's post statement: that statement writes the next iteration's
//     copy, so a closure made in an iteration sees its variable written
//     only by that iteration's body (assignments there still count).
//
// The profiled locals, those registered with Local for the profiling mode,
// are the shared ones. A captured variable that is only read is not
// registered although the alias analysis (over SSA) names it as a heap
// allocation: no instrumented site touches its storage, so the profile
// could not name an access with it, and taking its address would make the
// compiler capture it by reference and allocate it on the heap at every
// call (53% of the merge sort's CPU under gopct, docs/OVERHEAD.md).
func sharedLocals(f *ast.File, info *types.Info) (shared, profiled map[*types.Var]bool) {
	e := &escapes{info: info, shared: map[*types.Var]bool{}, captured: map[*types.Var]bool{},
		assigned: map[*types.Var]bool{}, direct: directLits(f),
		perIteration: perIterationLoops(info.FileVersions[f])}
	ast.Inspect(f, e.visit)
	for v := range e.captured {
		if e.assigned[v] {
			e.shared[v] = true
		}
	}
	return e.shared, e.shared
}

type escapes struct {
	info     *types.Info
	lits     []*ast.FuncLit // enclosing function literals, innermost last
	shared   map[*types.Var]bool
	captured map[*types.Var]bool // by a literal that may run in another goroutine
	assigned map[*types.Var]bool

	// direct are the function literals called where they are written.
	direct map[*ast.FuncLit]bool
	// perIteration says whether the file's loops have per-iteration
	// variables; postVars are those of the loop whose post statement is
	// being visited (its assignments write the next iteration's copy).
	perIteration bool
	postVars     map[*types.Var]bool
}

// perIterationLoops says whether a file of Go version v (go/types'
// FileVersions; "" when unknown) gives each iteration of a three-clause
// loop its own variables.
func perIterationLoops(v string) bool {
	return v != "" && version.Compare(v, "go1.22") >= 0
}

// directLits returns the function literals of f that are called where they
// are written, in the same goroutine: `func() {...}(...)` as an expression
// or in a defer statement, not in a go statement.
func directLits(f *ast.File) map[*ast.FuncLit]bool {
	direct := map[*ast.FuncLit]bool{}
	inGo := map[*ast.CallExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			inGo[n.Call] = true
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok && !inGo[n] {
				direct[lit] = true
			}
		}
		return true
	})
	return direct
}

func (e *escapes) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncLit:
		e.lits = append(e.lits, n)
		ast.Inspect(n.Body, e.visit)
		e.lits = e.lits[:len(e.lits)-1]
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
		switch {
		case n.Tok == token.ASSIGN:
			e.assign(n.Key)
			e.assign(n.Value)
		case n.Tok == token.DEFINE && !e.perIteration:
			// Before go1.22 the variables a range statement declares
			// are one pair for the whole loop, which the statement
			// assigns at every iteration (rangeLoopWrites).
			e.defined(n.Key)
			e.defined(n.Value)
		}
	case *ast.ForStmt:
		return e.forStmt(n)
	}
	return true
}

// forStmt visits a three-clause loop. With per-iteration variables, the
// assignments of its post statement to the variables its init statement
// declares do not count (see sharedLocals), unless a function literal in
// the loop's header could capture them there.
func (e *escapes) forStmt(n *ast.ForStmt) bool {
	init, ok := n.Init.(*ast.AssignStmt)
	if !e.perIteration || !ok || init.Tok != token.DEFINE || n.Post == nil ||
		hasLit(n.Init) || hasLit(n.Cond) || hasLit(n.Post) {
		return true
	}
	for _, c := range []ast.Node{n.Init, n.Cond, n.Body} {
		if c != nil {
			ast.Inspect(c, e.visit)
		}
	}
	e.postVars = map[*types.Var]bool{} // a post statement holds no loop
	for _, l := range init.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if v, ok := e.info.Defs[id].(*types.Var); ok {
				e.postVars[v] = true
			}
		}
	}
	ast.Inspect(n.Post, e.visit)
	e.postVars = nil
	return false
}

// hasLit says whether n contains a function literal.
func hasLit(n ast.Node) bool {
	if n == nil {
		return false
	}
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}

// use records a reference to a local variable from inside a function
// literal that does not declare it and may run in another goroutine: the
// innermost such literal between the use and the declaration that is not
// called where it is written.
func (e *escapes) use(id *ast.Ident) {
	v := localVar(e.info.Uses[id])
	if v == nil {
		return
	}
	for i := len(e.lits) - 1; i >= 0; i-- {
		lit := e.lits[i]
		if v.Pos() >= lit.Pos() && v.Pos() < lit.End() {
			return // declared inside: not a capture from here outwards
		}
		if !e.direct[lit] {
			e.captured[v] = true
			return
		}
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
	if v := e.root(x); v != nil && !e.postVars[v] {
		e.assigned[v] = true
	}
}

// defined counts the variable x declares as assigned after its
// declaration.
func (e *escapes) defined(x ast.Expr) {
	if id, ok := x.(*ast.Ident); ok {
		if v := localVar(e.info.Defs[id]); v != nil {
			e.assigned[v] = true
		}
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
