package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// The order in which gc reads memory in a statement.
//
// The spec leaves unspecified when a variable operand is read relative to
// the function calls of the same statement; gc first evaluates the calls
// and receives, left to right, into temporaries, and reads the variables,
// fields, elements and pointers after them: with f incrementing x,
// fmt.Println(x, f()) prints the new x. Code relies on it:
// github.com/oklog/ulid/v2's `func Parse(s string) (id ULID, err error) {
// return id, parse([]byte(s), false, &id) }` returns the ULID parse filled
// in. Instrumented, a read is a call, Load(site, &id), evaluated in its
// lexical place before parse: Parse returned the zero ULID, and ulid's
// TestMake, TestMustNewDefault, TestRoundTrips and TestAlizainCompatibility
// failed in every execution. A read that comes before a call of its
// statement is rendered (*LoadPtr(site, &x)) instead: the call records the
// access where the read was, and the value is read where gc reads it.
// Not matched: a function variable called, which gc reads after the calls
// of the arguments when it is a closure's captured variable (fn(ff()), ff
// assigning fn); the dereference of (*LoadPtr(site, &fn))(ff()) comes
// before them. Nor a map element (MapLoad is a call).

// readsBeforeCalls returns the expressions of f that gc evaluates after a
// call or receive that follows them: one that ends before a call of the
// statement (or condition, tag, range operand) it is evaluated in, within
// the innermost call that holds it, if any. An argument of g in
// g(x) + h() is read when g is called, before h; in g(x, h()), and in
// fn(h()) for the function value fn, after h.
func readsBeforeCalls(f *ast.File, info *types.Info) map[ast.Expr]bool {
	out := map[ast.Expr]bool{}
	unit := func(root ast.Node) {
		if root == nil {
			return
		}
		var calls []token.Pos // in source order
		inspectUnit(root, func(n ast.Node, _ ast.Node) {
			if isCallOrRecv(n, info) {
				calls = append(calls, n.Pos())
			}
		})
		if len(calls) == 0 {
			return
		}
		end := root.End()
		inspectUnit(root, func(n ast.Node, call ast.Node) {
			e, ok := n.(ast.Expr)
			if !ok {
				return
			}
			bound := end
			if call != nil {
				bound = call.End()
			}
			i := sort.Search(len(calls), func(i int) bool { return calls[i] >= e.End() })
			if i < len(calls) && calls[i] < bound {
				out[e] = true
			}
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt, *ast.ReturnStmt, *ast.ExprStmt, *ast.SendStmt, *ast.IncDecStmt,
			*ast.GoStmt, *ast.DeferStmt, *ast.ValueSpec:
			unit(s)
		case *ast.IfStmt:
			unit(s.Cond)
		case *ast.ForStmt:
			unit(s.Cond)
		case *ast.SwitchStmt:
			unit(s.Tag)
		case *ast.RangeStmt:
			unit(s.X)
		case *ast.CaseClause:
			for _, e := range s.List {
				unit(e)
			}
		}
		return true
	})
	return out
}

// inspectUnit calls f for n and its descendants evaluated with it (not the
// bodies of function literals: their statements are units of their own),
// each with the innermost call below n that holds it (nil if none).
func inspectUnit(n ast.Node, f func(n, call ast.Node)) {
	var calls []ast.Node
	ast.Inspect(n, func(c ast.Node) bool {
		if c == nil { // the end of a node pushed below
			calls = calls[:len(calls)-1]
			return false
		}
		var in ast.Node
		for i := len(calls) - 1; i >= 0; i-- {
			if calls[i] != nil {
				in = calls[i]
				break
			}
		}
		f(c, in)
		if _, ok := c.(*ast.FuncLit); ok {
			return false
		}
		if _, ok := c.(*ast.CallExpr); ok {
			calls = append(calls, c)
		} else {
			calls = append(calls, nil)
		}
		return true
	})
}

// isCallOrRecv says whether n is a function or method call (not a
// conversion, nor a builtin other than copy and clear) or a receive.
func isCallOrRecv(n ast.Node, info *types.Info) bool {
	switch n := n.(type) {
	case *ast.UnaryExpr:
		return n.Op == token.ARROW
	case *ast.CallExpr:
		fun := ast.Unparen(n.Fun)
		if tv, ok := info.Types[fun]; ok && tv.IsType() {
			return false
		}
		var id *ast.Ident
		switch f := fun.(type) {
		case *ast.Ident:
			id = f
		case *ast.SelectorExpr:
			id = f.Sel
		}
		if id != nil {
			if b, ok := info.Uses[id].(*types.Builtin); ok {
				return b.Name() == "copy" || b.Name() == "clear"
			}
		}
		return true
	}
	return false
}
