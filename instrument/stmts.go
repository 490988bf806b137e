package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// stmt renders a statement. simple is set for the init and post statements
// of if, for and switch, where only one simple statement fits.
func (r *fileRewriter) stmt(s ast.Stmt, simple bool) string {
	switch s := s.(type) {
	case *ast.ExprStmt:
		if c, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && c == s.X {
			ctx := ctxStmt
			if simple {
				ctx = ctxSimple
			}
			if r.litHelpers[s] && !simple {
				return r.call(c, ctx) + "; " + r.rt("NoteHelper") + "()"
			}
			return r.call(c, ctx)
		}
	case *ast.SendStmt:
		return r.send(s)
	case *ast.IncDecStmt:
		op := "+"
		if s.Tok == token.DEC {
			op = "-"
		}
		return r.update(s, s.X, op, "1", simple)
	case *ast.AssignStmt:
		if !simple && s.Tok == token.DEFINE {
			return r.assign(s, simple) + r.registerLocals(r.declared(s))
		}
		return r.assign(s, simple)
	case *ast.DeclStmt:
		return r.splice(s) + r.registerLocals(r.declared(s))
	case *ast.BlockStmt:
		return r.block(s)
	case *ast.CaseClause:
		return r.caseClause(s)
	case *ast.GoStmt:
		return r.goStmt(s)
	case *ast.DeferStmt:
		return r.raw(s.Pos(), s.Call.Pos()) + r.call(s.Call, ctxDefer)
	case *ast.RangeStmt:
		return r.rangeStmt(s)
	case *ast.SelectStmt:
		return r.selectStmt(s, "")
	case *ast.LabeledStmt:
		label := r.raw(s.Pos(), s.Stmt.Pos())
		if sel, ok := s.Stmt.(*ast.SelectStmt); ok {
			return r.selectStmt(sel, label)
		}
		return label + r.stmt(s.Stmt, false)
	case *ast.IfStmt:
		return r.withHeader(s, s.Init, nil)
	case *ast.SwitchStmt:
		return r.withHeader(s, s.Init, nil)
	case *ast.TypeSwitchStmt:
		return r.withHeader(s, s.Init, s.Assign)
	case *ast.ForStmt:
		return r.withHeader(s, s.Init, s.Post)
	}
	return r.splice(s)
}

// withHeader renders a statement whose header holds simple statements.
func (r *fileRewriter) withHeader(s ast.Stmt, a, b ast.Stmt) string {
	return r.spliceWith(s, func(c ast.Node) string {
		if c == a || c == b {
			return r.stmt(c.(ast.Stmt), true)
		}
		return r.node(c)
	})
}

// stmtsIn renders the statements of list with the original text between
// them, from from to to.
func (r *fileRewriter) stmtsIn(from, to token.Pos, list []ast.Stmt) string {
	var b strings.Builder
	pos := from
	for _, s := range list {
		b.WriteString(r.raw(pos, s.Pos()))
		b.WriteString(r.stmt(s, false))
		pos = s.End()
	}
	b.WriteString(r.raw(pos, to))
	return b.String()
}

// temps accumulates generated `name := value` statements evaluated in
// order before a rewritten statement.
type temps struct {
	r     *fileRewriter
	stmts []string
}

// hold stores text in a new temporary and returns its name.
func (t *temps) hold(prefix, text string) string {
	name := t.r.tmp(prefix)
	t.stmts = append(t.stmts, name+" := "+text)
	return name
}

// value holds e's rendering unless e is a constant or nil, which are kept
// inline so that they still take the type of their destination.
func (t *temps) value(e ast.Expr) string {
	tv := t.r.info.Types[e]
	if tv.Value != nil || tv.IsNil() || t.r.isStatic(e) {
		return t.r.text(e)
	}
	return t.hold("v", t.r.expr(e))
}

// wrap puts the held statements and s in a block.
func (t *temps) wrap(s string) string {
	if len(t.stmts) == 0 {
		return s
	}
	return "{ " + strings.Join(t.stmts, "; ") + "; " + s + " }"
}

// goStmt rewrites `go f(a, b)`: the function value and the arguments are
// evaluated in the parent into temporaries, then the runtime starts the
// child: Go(site, func() { f(ta, tb) }).
func (r *fileRewriter) goStmt(g *ast.GoStmt) string {
	c := g.Call
	site := r.site(pct.KindGo, g)
	t := &temps{r: r}
	var body string
	fun := ast.Unparen(c.Fun)
	fn, sel := r.callee(fun)
	if b, ok := r.info.Uses[identOf(fun)].(*types.Builtin); ok {
		args := t.args(c)
		if b.Name() == "close" {
			body = r.rt("Close") + "(" + r.site(pct.KindClose, c) + ", " + args[0] + ")"
		} else {
			body = r.text(c.Fun) + "(" + strings.Join(args, ", ") + ellipsis(c) + ")"
		}
	} else if o, method, ok := r.lookupOpSafe(fn, sel); ok {
		recv := r.specialRecv(c, sel, o, method)
		if recv != "" {
			recv = t.hold("r", recv)
		}
		body = r.special(c, o, recv, method, t.args(c))
	} else if lit, ok := fun.(*ast.FuncLit); ok && len(c.Args) == 0 && lit.Type.Params.NumFields() == 0 {
		return r.rt("Go") + "(" + site + ", " + r.expr(lit) + ")"
	} else {
		f := r.expr(c.Fun)
		if _, lit := fun.(*ast.FuncLit); !lit && !r.isStaticFunc(fun) {
			f = t.hold("f", r.expr(c.Fun))
		}
		body = f + "(" + strings.Join(t.args(c), ", ") + ellipsis(c) + ")"
	}
	return t.wrap(r.rt("Go") + "(" + site + ", func() { " + body + " })")
}

func (r *fileRewriter) lookupOpSafe(fn *types.Func, sel *types.Selection) (op, string, bool) {
	if fn == nil || fn.Pkg() == nil {
		return op{}, "", false
	}
	return r.lookupOp(fn, sel)
}

// args holds the arguments of c; a single multi-valued argument f() is
// spread over several temporaries.
func (t *temps) args(c *ast.CallExpr) []string {
	if len(c.Args) == 1 {
		if tup, ok := t.r.info.TypeOf(c.Args[0]).(*types.Tuple); ok && tup.Len() > 1 {
			names := make([]string, tup.Len())
			for i := range names {
				names[i] = t.r.tmp("v")
			}
			t.stmts = append(t.stmts, strings.Join(names, ", ")+" := "+t.r.expr(c.Args[0]))
			return names
		}
	}
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = t.value(a)
	}
	return out
}

func ellipsis(c *ast.CallExpr) string {
	if c.Ellipsis.IsValid() {
		return "..."
	}
	return ""
}

// isStaticFunc reports whether e names a function statically (a declared
// function, a method expression, an instantiation): it needs no
// evaluation, and generic ones cannot be stored in a variable uninstantiated.
func (r *fileRewriter) isStaticFunc(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := r.info.Uses[e].(*types.Func)
		return ok
	case *ast.SelectorExpr:
		if sel := r.info.Selections[e]; sel != nil {
			return sel.Kind() == types.MethodExpr
		}
		_, ok := r.info.Uses[e.Sel].(*types.Func)
		return ok
	case *ast.IndexExpr:
		return r.isStaticFunc(e.X)
	case *ast.IndexListExpr:
		return r.isStaticFunc(e.X)
	}
	return false
}

// send rewrites ch <- v to Send(site, ch, v).
func (r *fileRewriter) send(s *ast.SendStmt) string {
	ch, ok := under(r.info.TypeOf(s.Chan)).(*types.Chan)
	if !ok {
		return r.splice(s)
	}
	site := r.site(pct.KindSend, s)
	c, v := r.expr(s.Chan), r.expr(s.Value)
	if r.fits(s.Value, ch.Elem()) {
		return r.rt("Send") + "(" + site + ", " + c + ", " + v + ")"
	}
	return r.rt("XSend") + "(" + site + ", " + c + ")(" + v + ")"
}

// rangeStmt rewrites range loops over maps (rangeMap) and channels (a loop
// of Recv2); other range loops only get their operands rendered.
func (r *fileRewriter) rangeStmt(s *ast.RangeStmt) string {
	switch t := under(r.info.TypeOf(s.X)).(type) {
	case *types.Chan:
		return r.rangeChan(s)
	case *types.Map:
		return r.rangeMap(s, t)
	}
	if sl, ok := load.CoreType(r.info.TypeOf(s.X)).(*types.Slice); ok && nonBlank(s.Value) != nil {
		return r.rangeSlice(s, sl)
	}
	writes := r.rangeLoopWrites(s)
	unevaluated := r.rangeNotEvaluated(s)
	return r.spliceWith(s, func(c ast.Node) string {
		if c == s.X && unevaluated {
			return r.text(s.X)
		}
		if c == s.Key || c == s.Value {
			if s.Tok == token.DEFINE {
				return r.text(c)
			}
			return r.addr(c.(ast.Expr))
		}
		if c == s.Body && writes != "" {
			return openBlock(r.node(c), writes)
		}
		return r.node(c)
	})
}

// rangeNotEvaluated says whether Go does not evaluate the range
// expression: at most one iteration variable and a constant length (an
// array, or a pointer to one, in an expression without calls or
// receives). Instrumented, `for i := range c.segs` read the array, and
// goburrow/cache's TestMaximumSize reported that read against a sync.Map
// Delete on an element: a FALSE race (go test -race: none).
func (r *fileRewriter) rangeNotEvaluated(s *ast.RangeStmt) bool {
	if nonBlank(s.Value) != nil || hasCall(s.X) {
		return false
	}
	t := under(r.info.TypeOf(s.X))
	if p, ok := t.(*types.Pointer); ok {
		t = under(p.Elem())
	}
	_, isArray := t.(*types.Array)
	return isArray
}

// openBlock puts stmts first in the rendered block b (after its brace; b
// may begin with a position marker).
func openBlock(b, stmts string) string {
	i := strings.IndexByte(b, '{')
	return b[:i+1] + " " + stmts + b[i+1:]
}

// rangeLoopWrites is the write of each shared variable that a range
// statement over a slice, an array, a string or a map declares, to put
// first in its body, in a file whose loops share their variables between
// iterations (before go1.22): the statement assigns them at each iteration, and a goroutine that an earlier
// iteration started may be reading them (GoBench's cockroach35501 and
// moby22941: `for _, c := range checks { go func() { use(&c.Name) }() }`).
// The write stores the value just assigned, so it changes nothing; it is
// the event (and the scheduling point) of that assignment. With go1.22
// each iteration has its own variables, which nobody can have seen before
// the body starts.
func (r *fileRewriter) rangeLoopWrites(s *ast.RangeStmt) string {
	if s.Tok != token.DEFINE || perIterationLoops(r.info.FileVersions[r.file]) {
		return ""
	}
	var out string
	for _, x := range []ast.Expr{s.Key, s.Value} {
		id, ok := x.(*ast.Ident)
		if !ok {
			continue
		}
		if v := localVar(r.info.Defs[id]); v != nil && r.shared[v] {
			out += r.rt("Store") + "(" + r.site(pct.KindWrite, id) + ", &" + id.Name + ", " + id.Name + "); "
		}
	}
	return out
}

// rangeMap rewrites `for k, v := range m BODY` into
// `for w, k, v := MapWalk(site, m); w.Next(&k, &v); BODY` (pct/mapiter.go):
// a plain for loop, so that iteration is deterministic in every language
// version, without range-over-func. Declared in the for clause, k and v are
// per loop before go1.22 and per iteration from go1.22, as the range
// variables were. With `=`, fresh variables receive the entry and are
// assigned to the operands at the top of the body.
func (r *fileRewriter) rangeMap(s *ast.RangeStmt, m *types.Map) string {
	walk := r.rt("MapWalk") + "(" + r.site(pct.KindMapRead, s.X) + ", " + r.expr(s.X) + ")"
	w := r.tmp("w")
	key, val := nonBlank(s.Key), nonBlank(s.Value)
	if s.Tok == token.DEFINE || (key == nil && val == nil) {
		body := r.stmt(s.Body, false)
		if writes := r.rangeLoopWrites(s); writes != "" {
			body = openBlock(body, writes)
		}
		return "for " + w + ", " + r.declName(key) + ", " + r.declName(val) + " := " + walk + "; " +
			w + ".Next(" + addrOf(key) + ", " + addrOf(val) + "); " + body
	}
	k, v := r.tmp("k"), r.tmp("v")
	var pre string
	if key != nil {
		pre += r.assignTo(key, k, m.Key(), "") + "; "
	}
	if val != nil {
		pre += r.assignTo(val, v, m.Elem(), "") + "; "
	}
	return "for " + w + ", " + k + ", " + v + " := " + walk + "; " + w + ".Next(&" + k + ", &" + v + "); { " +
		pre + r.stmt(s.Body, false) + " }"
}

// rangeSlice rewrites `for i, v := range s BODY`, whose element v the loop
// reads, into an index loop whose body reads each element through RangeLoad
// (an event at a read site at s) before BODY (pct/sliceiter.go):
// `for s_, j_, i, v := SliceWalk(s); j_ < len(s_); j_++ { i, v = j_, RangeLoad(site, &s_[j_]); BODY }`.
// With `=`, fresh variables receive the index and the element, and are
// assigned to the operands, as rangeMap does.
func (r *fileRewriter) rangeSlice(s *ast.RangeStmt, sl *types.Slice) string {
	sv, n, j := r.tmp("s"), r.tmp("n"), r.tmp("j")
	elem := r.rt("RangeLoad") + "(" + r.site(pct.KindRead, s.X) + ", &" + sv + "[" + j + "])"
	key, val := nonBlank(s.Key), nonBlank(s.Value)
	var i, v, pre string
	if s.Tok == token.DEFINE {
		i, v = r.declName(key), r.declName(val)
		pre = assignIfNamed(i, j) + assignIfNamed(v, elem) + r.rangeLoopWrites(s)
	} else {
		i, v = "_", r.tmp("v")
		if key != nil {
			i = r.tmp("k")
		}
		pre = assignIfNamed(i, j) + v + " = " + elem + "; "
		if key != nil {
			pre += r.assignTo(key, i, types.Typ[types.Int], "") + "; "
		}
		pre += r.assignTo(val, v, sl.Elem(), "") + "; "
	}
	return "for " + sv + ", " + n + ", " + j + ", " + i + ", " + v + " := " + r.rt("SliceWalk") + "(" + r.expr(s.X) + "); " +
		j + " < " + n + "; " + j + "++ " + openBlock(r.stmt(s.Body, false), pre)
}

// assignIfNamed is `name = v; `, or nothing for a blank name.
func assignIfNamed(name, v string) string {
	if name == "_" {
		return ""
	}
	return name + " = " + v + "; "
}

// nonBlank returns e, or nil for a missing or blank range variable.
func nonBlank(e ast.Expr) ast.Expr {
	if e == nil || isBlank(e) {
		return nil
	}
	return e
}

// declName is the name a range variable declares, or _.
func (r *fileRewriter) declName(e ast.Expr) string {
	if e == nil {
		return "_"
	}
	return r.text(e)
}

// addrOf is &name of a declared range variable, or nil.
func addrOf(e ast.Expr) string {
	if e == nil {
		return "nil"
	}
	return "&" + e.(*ast.Ident).Name
}

// rangeChan rewrites `for v := range ch BODY` into
// `for c := ch; ; { v, ok := Recv2(site, c); if !ok { break }; BODY }`:
// the channel is evaluated once, the label (kept by the caller) still names
// the loop, and each iteration declares its own v as in Go 1.22.
func (r *fileRewriter) rangeChan(s *ast.RangeStmt) string {
	site := r.site(pct.KindRecv, s)
	c, ok := r.tmp("ch"), r.tmp("ok")
	recv := r.rt("Recv2") + "(" + site + ", " + c + ")"
	var pre string
	key := s.Key
	if id := identOf(key); id != nil && id.Name == "_" {
		key = nil
	}
	switch {
	case key == nil:
		pre = "if _, " + ok + " := " + recv + "; !" + ok + " { break }; "
	case s.Tok == token.DEFINE:
		k := r.text(key)
		pre = k + ", " + ok + " := " + recv + "; if !" + ok + " { break }; _ = " + k + "; "
	default:
		v := r.tmp("v")
		pre = v + ", " + ok + " := " + recv + "; if !" + ok + " { break }; " + r.assignTo(key, v, r.info.TypeOf(key), "") + "; "
	}
	return "for " + c + " := " + r.expr(s.X) + "; ; { " + pre + r.stmt(s.Body, false) + " }"
}

// selectStmt rewrites a select statement into a switch on Select (see
// api.go): channel operands and send values are evaluated first, in source
// order, into temporaries; try(i) and block() run native selects on them;
// case i of the switch assigns the received values and runs the body. The
// last case is the switch's default so that a terminating select stays a
// terminating statement; break keeps its meaning (it now leaves the switch).
// block() selects on Mask(operand)s and on Kicker(), which lets the runtime
// leave out a channel made outside the test and wake the select when such
// a channel changes (pct/foreign.go): it then returns -2.
func (r *fileRewriter) selectStmt(s *ast.SelectStmt, label string) string {
	site := r.site(pct.KindSelect, s)
	clauses := s.Body.List
	if len(clauses) == 0 {
		return label + "for { " + r.rt("Select") + "(" + site + ", 0, false, func(int) bool { return false }, func() int { select {} }, nil) }"
	}
	t := &temps{r: r}
	var zeros, tries, blocks, chans []string
	heads := make([]string, len(clauses))
	prefix := make([]string, len(clauses))
	n, hasDefault := 0, false
	for i, cl := range clauses {
		cc := cl.(*ast.CommClause)
		if cc.Comm == nil {
			hasDefault, heads[i] = true, "default:"
			continue
		}
		comm, blockComm, ch := r.commTemps(cc.Comm, t, &zeros, &prefix[i])
		tries = append(tries, fmt.Sprintf("case %d: select { case %s: return true; default: return false }", n, comm))
		_, send := cc.Comm.(*ast.SendStmt)
		chans = append(chans, fmt.Sprintf("case %d: return %s(%s), %v", n, r.rt("ChanID"), ch, send))
		blocks = append(blocks, fmt.Sprintf("case %s: return %d", blockComm, n))
		heads[i] = fmt.Sprintf("case %d:", n)
		n++
	}
	if !hasDefault {
		heads[len(clauses)-1] = "default:"
	}
	if n > 0 {
		blocks = append(blocks, "case <-"+t.hold("k", r.rt("Kicker")+"()")+": return -2")
	}
	t.stmts = append(t.stmts, zeros...)
	try := "func(i int) bool { switch i { " + strings.Join(tries, "; ") + " }; return false }"
	block := "func() int { select { " + strings.Join(blocks, "; ") + " } }"
	caseChans := "func(i int) (uintptr, bool) { switch i { " + strings.Join(chans, "; ") + " }; return 0, false }"
	// The temporaries need a block; a label inside it is out of reach of
	// a goto from outside (hashicorp/raft's replicateTo jumps back to
	// `CHECK_MORE: select {...}`: "goto CHECK_MORE jumps into block"). A
	// labelled select is then a labelled `switch { default: ... }` around
	// them, which a goto reaches and a `break label` leaves, as it left
	// the select.
	outer := ""
	if label != "" && len(t.stmts) > 0 {
		outer, label = label, ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%sswitch %s(%s, %d, %v, %s, %s, %s) {", label, r.rt("Select"), site, n, hasDefault, try, block, caseChans)
	pos := s.Body.Lbrace + 1
	for i, cl := range clauses {
		cc := cl.(*ast.CommClause)
		b.WriteString(r.raw(pos, cc.Pos()))
		b.WriteString(heads[i] + " " + prefix[i])
		if l := r.entryLocals(cc); l != "" {
			b.WriteString(l[1:])
		}
		b.WriteString(r.stmtsIn(cc.Colon+1, cc.End(), cc.Body))
		pos = cc.End()
	}
	b.WriteString(r.raw(pos, s.Body.Rbrace) + "}")
	if outer != "" {
		return outer + "switch { default: " + strings.Join(t.stmts, "; ") + "; " + b.String() + " }"
	}
	return t.wrap(b.String())
}

// commTemps holds the operands of one select case and returns the case's
// communication over temporaries, the same over the masked channel for
// the blocking select, and the channel's temporary. For a receive with
// assignment it adds the temporaries' declarations to zeros and the
// assignment to prefix.
func (r *fileRewriter) commTemps(comm ast.Stmt, t *temps, zeros *[]string, prefix *string) (string, string, string) {
	mask := func(ch string) string { return t.hold("m", r.rt("Mask")+"("+ch+")") }
	switch c := comm.(type) {
	case *ast.SendStmt:
		ch := t.hold("c", r.expr(c.Chan))
		v := t.value(c.Value)
		return ch + " <- " + v, mask(ch) + " <- " + v, ch
	case *ast.ExprStmt:
		u := ast.Unparen(c.X).(*ast.UnaryExpr)
		ch := t.hold("c", r.expr(u.X))
		return "<-" + ch, "<-" + mask(ch), ch
	case *ast.AssignStmt:
		u := ast.Unparen(c.Rhs[0]).(*ast.UnaryExpr)
		ch := t.hold("c", r.expr(u.X))
		m := mask(ch)
		v, ok := r.tmp("v"), "_"
		names := v
		if len(c.Lhs) == 2 {
			ok = r.tmp("ok")
			names += ", " + ok
		}
		*zeros = append(*zeros, v+", "+ok+" := "+r.rt("XZero")+"("+ch+")")
		lhs := make([]string, len(c.Lhs))
		for i, l := range c.Lhs {
			if c.Tok == token.DEFINE {
				lhs[i] = r.text(l)
			} else {
				lhs[i] = r.addr(l)
			}
		}
		*prefix = strings.Join(lhs, ", ") + " " + c.Tok.String() + " " + names + "; "
		return names + " = <-" + ch, names + " = <-" + m, ch
	}
	panic(fmt.Sprintf("unexpected select case %T", comm))
}

// testFunc reports whether fd is a test function to wrap: a top-level
// func TestXxx(t *testing.T) without results or type parameters, in a
// _test.go file.
func (r *fileRewriter) testFunc(fd *ast.FuncDecl) (string, bool) {
	name := fd.Name.Name
	if fd.Recv != nil || fd.Type.TypeParams != nil || fd.Type.Results != nil || !isTestName(name) {
		return "", false
	}
	if !strings.HasSuffix(r.lineName, "_test.go") || (r.tests != nil && !r.tests[name]) {
		return "", false
	}
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 {
		return "", false
	}
	p, ok := types.Unalias(r.info.TypeOf(ps[0].Type)).(*types.Pointer)
	if !ok {
		return "", false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "testing" || n.Obj().Name() != "T" {
		return "", false
	}
	return name, true
}

func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	rest := name[len("Test"):]
	if rest == "" {
		return true
	}
	c, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(c)
}

// wrapTest rewrites func TestX(t *testing.T) { BODY } into func TestX(t
// *testing.T) { if Redirect(t, TestX) { return }; defer BodyEnd(); { BODY }
// }: the body stays in TestX, which each execution runs under testing's
// tRunner, so that runtime.Caller, stack traces and the names of the
// body's function literals are those of go test (pct.Redirect). An
// unnamed or blank parameter gets a generated name.
func (r *fileRewriter) wrapTest(fd *ast.FuncDecl, _ string) string {
	p := fd.Type.Params.List[0]
	param := "__gopct_t"
	var sig string
	switch {
	case len(p.Names) == 0:
		sig = r.raw(fd.Pos(), p.Type.Pos()) + param + " " + r.raw(p.Type.Pos(), fd.Body.Pos())
	case p.Names[0].Name == "_":
		sig = r.raw(fd.Pos(), p.Names[0].Pos()) + param + r.raw(p.Names[0].End(), fd.Body.Pos())
	default:
		param = p.Names[0].Name
		sig = r.raw(fd.Pos(), fd.Body.Pos())
	}
	return sig + "{ if " + r.rt("Redirect") + "(" + param + ", " + fd.Name.Name + ") { return }; defer " + r.rt("BodyEnd") + "(); " + r.stmt(fd.Body, false) + " }"
}
