package instrument

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"strconv"
	"strings"
)

// clockReads are the functions of package time that read the clock,
// rewritten into the runtime's functions of the same name: inside an
// execution each reading is later than the one before (pct/clock.go).
var clockReads = map[string]bool{"Now": true, "Since": true, "Until": true}

// clockCall rewrites time.Now(), time.Since(t) and time.Until(t) into the
// runtime's Now, Since and Until. It reports false for any other call.
func (r *fileRewriter) clockCall(c *ast.CallExpr) (string, bool) {
	fun := ast.Unparen(c.Fun)
	fn, sel := r.callee(fun)
	if fn == nil || sel != nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" || !clockReads[fn.Name()] {
		return "", false
	}
	r.keep[r.keepName(fun)] = true // the package may have no other use left
	return r.rt(fn.Name()) + "(" + strings.Join(r.exprs(c.Args), ", ") + ")", true
}

// clockValue renders time.Now, time.Since or time.Until used as a value
// (var timeNow = time.Now, a clock injected for tests as many libraries
// do) as the runtime's function of the same name, so that its readings are
// ordered with the direct calls' (a test's time.Now() taken before a
// timeNow() stamp read later than the stamp: a false failure found in
// review). It returns "" for any other selector.
func (r *fileRewriter) clockValue(e *ast.SelectorExpr) string {
	fn, ok := r.info.Uses[e.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" || !clockReads[fn.Name()] {
		return ""
	}
	if fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	r.keep[r.keepName(e)] = true
	return r.rt(fn.Name())
}

// timerValues are the functions of packages time and context that start
// timers (and AfterFunc callbacks), rewritten when used as values, as
// injected clocks use them (`var afterFunc = time.AfterFunc`).
var timerValues = map[string]bool{
	"time.Sleep": true, "time.After": true, "time.NewTimer": true, "time.AfterFunc": true,
	"time.Tick": true, "time.NewTicker": true, "context.AfterFunc": true,
}

// timerValue renders such a function used as a value as a closure that
// calls its runtime replacement with a site of its own: its timers are
// then the scheduler's, and an AfterFunc callback runs as a managed
// goroutine instead of one gopct does not see (pct/external.go). The
// signature's types all belong to the function's package, so they are
// written with the selector's own package name. It returns "" for any
// other selector.
func (r *fileRewriter) timerValue(e *ast.SelectorExpr) string {
	fn, ok := r.info.Uses[e.Sel].(*types.Func)
	if !ok || !timerValues[funcKey(fn)] {
		return ""
	}
	pkgName, ok := e.X.(*ast.Ident)
	if !ok {
		return ""
	}
	name := ops[funcKey(fn)].fn
	sig := fn.Type().(*types.Signature)
	qual := func(p *types.Package) string {
		if p == fn.Pkg() {
			return pkgName.Name
		}
		return p.Name() // not reached: the types are the function's package's
	}
	var params, args []string
	for i := range sig.Params().Len() {
		p := "p" + strconv.Itoa(i)
		params = append(params, p+" "+types.TypeString(sig.Params().At(i).Type(), qual))
		args = append(args, p)
	}
	call := r.rt(name) + "(" + strings.Join(append([]string{r.site(ops[funcKey(fn)].kind, e)}, args...), ", ") + ")"
	r.keep[r.keepName(e)] = true
	results := types.TypeString(sig.Results(), qual)
	if sig.Results().Len() == 0 {
		return "func(" + strings.Join(params, ", ") + ") { " + call + " }"
	}
	return "func(" + strings.Join(params, ", ") + ") " + results + " { return " + call + " }"
}

// clockLinks are the real-clock functions of the runtime that packages pull
// with //go:linkname (fast clocks: sethvargo/go-limiter's fasttime declares
// `//go:linkname now time.now`), each with the body that replaces it: the
// runtime's Now, so the readings follow the execution's clock as time.Now's
// do. Left on the real clock, such a package saw no time pass across the
// test's fake sleeps: go-limiter's TestStore_Take, which sleeps one interval
// for its bucket to refill, failed in execution #0 of every hunt. (The
// linker lets no package but time pull time.runtimeNow, the bubble-aware
// reading, so the directive cannot simply be retargeted.) Outside an
// execution the runtime's Now reads the real clock. The monotonic reading
// is the wall clock's: in a bubble it never goes back.
var clockLinks = map[string]struct {
	results int
	body    string // %s: the runtime's package name
}{
	"time.now":         {3, "{ t := %s.Now(); return t.Unix(), int32(t.Nanosecond()), t.UnixNano() }"},
	"runtime.nanotime": {1, "{ return %s.Now().UnixNano() }"},
}

// linknameDirective matches a //go:linkname directive: its local name and
// its target.
var linknameDirective = regexp.MustCompile(`(?m)^//go:linkname[ \t]+(\S+)[ \t]+(\S+)[ \t]*$`)

// findClockLinks records the file's functions linked to a real clock
// (clockLinks), by local name: only a body-less function declared in this
// file with the target's number of results, so that a directive is unlinked
// only where its function gets a body.
func (r *fileRewriter) findClockLinks() {
	for _, g := range r.file.Comments {
		for _, c := range g.List {
			m := linknameDirective.FindStringSubmatch(c.Text)
			if m == nil || clockLinks[m[2]].body == "" || !r.bodyless(m[1], clockLinks[m[2]].results) {
				continue
			}
			if r.clockFuncs == nil {
				r.clockFuncs = map[string]string{}
			}
			r.clockFuncs[m[1]] = m[2]
		}
	}
}

// bodyless reports whether the file declares a function name without a
// body or receiver, with the given number of results.
func (r *fileRewriter) bodyless(name string, results int) bool {
	for _, d := range r.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body != nil || fd.Recv != nil || fd.Name.Name != name {
			continue
		}
		fn, _ := r.info.Defs[fd.Name].(*types.Func)
		return fn != nil && fn.Type().(*types.Signature).Results().Len() == results
	}
	return false
}

// unlinkClocks turns, in text between declarations (where directives sit),
// each directive findClockLinks recorded into a plain comment: a function
// with a body under it would define the runtime's symbol. When next, the
// declaration after text, is such a function, its //go:noescape goes too
// (the compiler allows it only on a function without a body).
func (r *fileRewriter) unlinkClocks(text string, next ast.Decl) string {
	if r.clockFuncs == nil {
		return text
	}
	text = linknameDirective.ReplaceAllStringFunc(text, func(d string) string {
		m := linknameDirective.FindStringSubmatch(d)
		if r.clockFuncs[m[1]] != m[2] {
			return d
		}
		return "// gopct: linkname " + m[1] + " " + m[2] + " replaced by a body"
	})
	if fd, ok := next.(*ast.FuncDecl); ok && fd.Body == nil && fd.Recv == nil && r.clockFuncs[fd.Name.Name] != "" {
		text = noescapeDirective.ReplaceAllString(text, "// gopct: noescape dropped")
	}
	return text
}

var noescapeDirective = regexp.MustCompile(`(?m)^//go:noescape[ \t]*$`)

// clockFuncDecl renders a body-less function findClockLinks recorded with
// the body that reads the runtime's clock; "" when fd is not one.
func (r *fileRewriter) clockFuncDecl(fd *ast.FuncDecl) string {
	target, ok := r.clockFuncs[fd.Name.Name]
	if !ok || fd.Recv != nil {
		return ""
	}
	r.edits++
	return r.text(fd) + " " + fmt.Sprintf(clockLinks[target].body, runtimeName)
}
