package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/gopct/gopct/internal/load"
	"github.com/gopct/gopct/pct"
)

// callCtx says where a call appears, which decides how a scheduling point
// can be placed before it.
type callCtx int

const (
	ctxValue  callCtx = iota // inside an expression
	ctxStmt                  // an expression statement in a statement list
	ctxSimple                // an expression statement in an if/for/switch header
	ctxDefer                 // the call of a defer statement
)

// recvMode says how a runtime function receives the method's receiver.
type recvMode int

const (
	recvNone  recvMode = iota // a package-level function
	recvPtr                   // a pointer to the receiver (e.g. *sync.Mutex)
	recvValue                 // the receiver value (an interface such as sync.Locker)
	recvCopy                  // a copy of the receiver, a struct (reflect.Value)
	recvSelf                  // the receiver operand as written (&x for a pointer method on a value)
)

// op is the runtime replacement of a standard-library function or method.
type op struct {
	fn   string
	kind pct.SiteKind
	recv recvMode
}

// ops maps "pkg.Type.Method" or "pkg.Func" to its runtime replacement.
var ops = map[string]op{
	"sync.Mutex.Lock":       {"Lock", pct.KindLock, recvPtr},
	"sync.Mutex.Unlock":     {"Unlock", pct.KindUnlock, recvPtr},
	"sync.Mutex.TryLock":    {"TryLock", pct.KindLock, recvPtr},
	"sync.RWMutex.Lock":     {"WLock", pct.KindLock, recvPtr},
	"sync.RWMutex.Unlock":   {"WUnlock", pct.KindUnlock, recvPtr},
	"sync.RWMutex.TryLock":  {"WTryLock", pct.KindLock, recvPtr},
	"sync.RWMutex.RLock":    {"RLock", pct.KindRLock, recvPtr},
	"sync.RWMutex.RUnlock":  {"RUnlock", pct.KindRUnlock, recvPtr},
	"sync.RWMutex.TryRLock": {"TryRLock", pct.KindRLock, recvPtr},
	"sync.RWMutex.RLocker":  {"RLocker", pct.KindOther, recvPtr},
	"sync.Locker.Lock":      {"LockerLock", pct.KindLock, recvValue},
	"sync.Locker.Unlock":    {"LockerUnlock", pct.KindUnlock, recvValue},
	"sync.WaitGroup.Add":    {"WGAdd", pct.KindWGAdd, recvPtr},
	"sync.WaitGroup.Done":   {"WGDone", pct.KindWGAdd, recvPtr},
	"sync.WaitGroup.Wait":   {"WGWait", pct.KindWGWait, recvPtr},
	"sync.WaitGroup.Go":     {"WGGo", pct.KindGo, recvPtr},
	"sync.Once.Do":          {"OnceDo", pct.KindOnce, recvPtr},
	"sync.Cond.Wait":        {"CondWait", pct.KindCondWait, recvPtr},
	"sync.Cond.Signal":      {"CondSignal", pct.KindCondSignal, recvPtr},
	"sync.Cond.Broadcast":   {"CondBroadcast", pct.KindCondSignal, recvPtr},
	"time.Sleep":            {"Sleep", pct.KindSleep, recvNone},
	"time.After":            {"After", pct.KindTimer, recvNone},
	"time.NewTimer":         {"NewTimer", pct.KindTimer, recvNone},
	"time.AfterFunc":        {"AfterFunc", pct.KindTimer, recvNone},
	"time.Timer.Reset":      {"TimerReset", pct.KindTimer, recvPtr},
	"time.Tick":             {"Tick", pct.KindTimer, recvNone},
	"time.NewTicker":        {"NewTicker", pct.KindTimer, recvNone},
	"time.Ticker.Reset":     {"TickerReset", pct.KindTimer, recvPtr},
	"context.WithTimeout":   {"WithTimeout", pct.KindTimer, recvNone},
	"context.WithDeadline":  {"WithDeadline", pct.KindTimer, recvNone},
	"context.AfterFunc":     {"ContextAfterFunc", pct.KindTimer, recvNone},
	"sync.OnceFunc":         {"OnceFunc", pct.KindOnce, recvNone},
	"sync.OnceValue":        {"OnceValue", pct.KindOnce, recvNone},
	"sync.OnceValues":       {"OnceValues", pct.KindOnce, recvNone},
	"runtime.Gosched":       {"Gosched", pct.KindOther, recvNone},
	"testing/synctest.Test": {"SynctestTest", pct.KindOther, recvNone},
	"testing/synctest.Wait": {"SynctestWait", pct.KindOther, recvNone},
	"runtime.SetFinalizer":  {"SetFinalizer", pct.KindOther, recvNone},
	"runtime.AddCleanup":    {"AddCleanup", pct.KindOther, recvNone},
	"runtime.GC":            {"GC", pct.KindOther, recvNone},
	// A file's times from the kernel's clock, on the execution's clock, and
	// back (pct/filetime.go).
	"io/fs.FileInfo.ModTime": {"FileModTime", pct.KindOther, recvValue},
	"os.Chtimes":             {"Chtimes", pct.KindOther, recvNone},
	// A measurement of the process's memory counts gopct's allocations
	// too: a test failure after one is an environment error (pct/memstats.go).
	"runtime.ReadMemStats": {"ReadMemStats", pct.KindOther, recvNone},
	"testing.AllocsPerRun": {"AllocsPerRun", pct.KindOther, recvNone},
	"sync.Map.Range":       {"SyncMapRange", pct.KindAtomicLoad, recvPtr},
	"sync.Pool.Get":        {"PoolGet", pct.KindOther, recvPtr},
	"sync.Pool.Put":        {"PoolPut", pct.KindOther, recvPtr},
	"testing.T.Run":        {"TRun", pct.KindOther, recvPtr},
	"testing.T.Parallel":   {"TParallel", pct.KindOther, recvPtr},
	// A signal handler cannot be registered in a synctest bubble: an
	// environment error that says so (pct/signals.go).
	"os/signal.Notify":        {"SignalNotify", pct.KindOther, recvNone},
	"os/signal.NotifyContext": {"SignalNotifyContext", pct.KindOther, recvNone},
	"testing.common.Cleanup":  {"TCleanup", pct.KindOther, recvValue}, // t.Cleanup, b.Cleanup
	"testing.TB.Cleanup":      {"TCleanup", pct.KindOther, recvValue},
	// A subtest's name: the subtests share the test's t (pct/subtests.go).
	"testing.common.Name": {"TName", pct.KindOther, recvValue},
	"testing.TB.Name":     {"TName", pct.KindOther, recvValue},
	// A subtest's t.Skip ends the subtest, not the test (the t is shared).
	"testing.common.Skip":    {"TSkip", pct.KindOther, recvValue},
	"testing.common.Skipf":   {"TSkipf", pct.KindOther, recvValue},
	"testing.common.SkipNow": {"TSkipNow", pct.KindOther, recvValue},
	"testing.TB.Skip":        {"TSkip", pct.KindOther, recvValue},
	"testing.TB.Skipf":       {"TSkipf", pct.KindOther, recvValue},
	"testing.TB.SkipNow":     {"TSkipNow", pct.KindOther, recvValue},
	// A subtest's t.Setenv and t.Chdir are undone when it is complete.
	"testing.common.Setenv": {"TSetenv", pct.KindOther, recvValue},
	"testing.T.Setenv":      {"TSetenv", pct.KindOther, recvValue},
	"testing.TB.Setenv":     {"TSetenv", pct.KindOther, recvValue},
	"testing.common.Chdir":  {"TChdir", pct.KindOther, recvValue},
	"testing.T.Chdir":       {"TChdir", pct.KindOther, recvValue},
	"testing.TB.Chdir":      {"TChdir", pct.KindOther, recvValue},
	// Channel operations through reflect (pct/reflectchan.go).
	"reflect.Value.Recv":  {"ReflectRecv", pct.KindRecv, recvCopy},
	"reflect.Value.Send":  {"ReflectSend", pct.KindSend, recvCopy},
	"reflect.Value.Close": {"ReflectClose", pct.KindClose, recvCopy},
	"reflect.Select":      {"ReflectSelect", pct.KindSelect, recvNone},
}

// testFailures are the methods of testing's types rewritten to TError.
var testFailures = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// testLogs are the methods of testing's types rewritten to TLog: a
// goroutine that logs after its test completed makes go test panic.
var testLogs = map[string]bool{"Log": true, "Logf": true}

// callee returns the function or method a call expression's Fun denotes,
// and the selection when it is a method selected from a value.
func (r *fileRewriter) callee(fun ast.Expr) (*types.Func, *types.Selection) {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		fn, _ := r.info.Uses[f].(*types.Func)
		return fn, nil
	case *ast.SelectorExpr:
		if sel := r.info.Selections[f]; sel != nil {
			fn, _ := sel.Obj().(*types.Func)
			if sel.Kind() != types.MethodVal {
				return nil, nil
			}
			return fn, sel
		}
		fn, _ := r.info.Uses[f.Sel].(*types.Func)
		return fn, nil
	}
	return nil, nil
}

// builtinOf returns the builtin function fun names: a predeclared one
// (len, close) or one of package unsafe (unsafe.Offsetof, unsafe.Add),
// which is no function value and no call into other code.
func (r *fileRewriter) builtinOf(fun ast.Expr) *types.Builtin {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		b, _ := r.info.Uses[f].(*types.Builtin)
		return b
	case *ast.SelectorExpr:
		b, _ := r.info.Uses[f.Sel].(*types.Builtin)
		return b
	}
	return nil
}

// funcKey names fn as "pkg.Func" or "pkg.Type.Method".
func funcKey(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	key := fn.Pkg().Path() + "."
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok {
			return ""
		}
		key += n.Obj().Name() + "."
	}
	return key + fn.Name()
}

// call renders a call expression.
func (r *fileRewriter) call(c *ast.CallExpr, ctx callCtx) string {
	fun := ast.Unparen(c.Fun)
	if r.isType(fun) {
		if r.isStringToSlice(c) {
			return r.allocBuiltin(c) // []byte(s) allocates
		}
		return r.splice(c) // conversion
	}
	if b := r.builtinOf(fun); b != nil {
		return r.builtinCall(c, b.Name(), ctx)
	}
	if s, ok := r.randCall(c); ok {
		return s
	}
	if s, ok := r.mapsIterCall(c); ok {
		return s
	}
	if s, ok := r.timeSeeds(c); ok {
		return s
	}
	if s, ok := r.clockCall(c); ok {
		return s
	}
	if s, ok := r.stackCall(c); ok {
		return s
	}
	fn, sel := r.callee(fun)
	if fn != nil && fn.Pkg() != nil {
		if o, method, ok := r.lookupOp(fn, sel); ok {
			if x, isSel := ast.Unparen(c.Fun).(*ast.SelectorExpr); isSel && o.fn == "OnceDo" && r.packageLevel(x.X) {
				o.fn = "OnceDoGlobal" // what it starts serves the process (pct/daemons.go)
			}
			recv := r.specialRecv(c, sel, o, method)
			if s, ok := r.ownLockCall(c, o, fn, recv, ctx); ok {
				return s
			}
			return r.special(c, o, recv, method, r.exprs(c.Args))
		}
		if fn.Pkg().Path() == "sync/atomic" || strings.HasPrefix(funcKey(fn), "sync.Map.") {
			// sync.Map's methods are atomic operations on the map: a
			// scheduling point before each lets check-then-act races on
			// it show.
			return r.atomicCall(c, ctx)
		}
	}
	if r.leaves(c, fn, sel) {
		if ctx != ctxDefer {
			return r.leavingCall(c)
		}
		if s, ok := r.leavingDefer(c, fn, sel); ok {
			return s
		}
	}
	return r.plainCall(c)
}

// leavingDefer renders the call of `defer f()`, f without arguments into
// code gopct does not instrument, as a deferred call of pct.Leaving(f)
// (or Leaving1 for one result): the batch is closed when f runs, at the
// function's end (`defer srv.Close()` waits for handlers gopct does not
// manage). Only a function or concrete method of the standard library: a
// deferred function value or another module's function may call recover,
// which works only when called by the deferred function itself. Calls with
// arguments are left as they are.
func (r *fileRewriter) leavingDefer(c *ast.CallExpr, fn *types.Func, sel *types.Selection) (string, bool) {
	if fn == nil || fn.Pkg() == nil || !stdlib(fn.Pkg().Path()) || sel != nil && types.IsInterface(sel.Recv()) {
		return "", false
	}
	sig, _ := r.info.TypeOf(c.Fun).(*types.Signature)
	if len(c.Args) > 0 || sig == nil || sig.Results().Len() > 1 || r.inferredGeneric(c.Fun) {
		return "", false
	}
	name := "Leaving"
	if sig.Results().Len() == 1 {
		name = "Leaving1"
	}
	return r.rt(name) + "(" + r.funText(c) + ")", true
}

// plainCall renders a call that is not rewritten itself.
func (r *fileRewriter) plainCall(c *ast.CallExpr) string {
	return r.callWithArgs(c, nil)
}

// leavingCall renders a call into code gopct does not instrument: once its
// arguments are evaluated, the caller's tally batch is closed (pct.Leave,
// pct/tally.go), so that goroutines gopct does not manage, which that code
// may run while the caller waits in it, are not counted as the caller.
// The last argument is wrapped, as nothing is evaluated between it and
// the call; without one that can be (no arguments, a constant or nil, a
// multi-valued call), the function is, after which the arguments'
// evaluation may open a batch again (rarely: they hold no access then).
func (r *fileRewriter) leavingCall(c *ast.CallExpr) string {
	if n := len(c.Args); n > 0 {
		last := c.Args[n-1]
		// A constant or nil takes the parameter's type, which Leave's
		// type argument would not (Leave(3) is an int).
		// So does a generic function whose type arguments the parameter's
		// type infers.
		if tv, ok := r.info.Types[last]; ok && tv.Type != nil && tv.Value == nil && !untyped(tv.Type) && !tv.IsNil() &&
			!r.inferredGeneric(last) {
			if _, tuple := tv.Type.(*types.Tuple); !tuple {
				return r.callWithArgs(c, map[ast.Node]string{last: r.rt("Leave") + "(" + r.expr(last) + ")"})
			}
		}
	}
	if r.inferredGeneric(c.Fun) {
		return r.plainCall(c) // an uninstantiated generic function is no value
	}
	return r.spliceWith(c, func(n ast.Node) string {
		if n == c.Fun {
			return r.rt("LeaveFunc") + "(" + r.funText(c) + ")"
		}
		return r.node(n)
	})
}

// funText renders the function of call c as callWithArgs does.
func (r *fileRewriter) funText(c *ast.CallExpr) string {
	if se, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && se == c.Fun {
		if sel := r.info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
			return r.raw(se.Pos(), se.X.Pos()) + r.recvOperand(se.X, sel) + r.raw(se.X.End(), se.End())
		}
	}
	return r.node(c.Fun)
}

// inferredGeneric says whether fun names a generic function whose type
// arguments the call infers.
func (r *fileRewriter) inferredGeneric(fun ast.Expr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	_, ok := r.info.Instances[id]
	return ok
}

// stdlib says whether an import path is the standard library's (no dot in
// its first element).
func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func untyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// leaves says whether call c, to fn (nil: a function value) through sel,
// may run code gopct does not instrument that can block the caller or run
// the test's code on goroutines gopct does not manage: a function or
// method of a package outside the instrumented ones (the module and -deps)
// other than the pure standard-library ones (pure), a method of an
// interface that is not theirs, or a function value.
func (r *fileRewriter) leaves(c *ast.CallExpr, fn *types.Func, sel *types.Selection) bool {
	if _, lit := ast.Unparen(c.Fun).(*ast.FuncLit); lit {
		return false
	}
	if fn == nil {
		// A function value: a closure of the test's, or not. unsafe's
		// functions (unsafe.Slice, StringData, Add) are builtins, which
		// are no values (LeaveFunc(unsafe.Slice) does not compile: every
		// test of go.etcd.io/raft/v3, whose generated raftpb calls
		// unsafe.Slice(unsafe.StringData(raw), len(raw)), failed to build)
		// and call nothing.
		return !r.isBuiltin(c.Fun)
	}
	if fn.Pkg() == nil {
		return false // error.Error
	}
	if sel != nil && types.IsInterface(sel.Recv()) {
		return !pureIface(sel.Recv())
	}
	path := fn.Pkg().Path()
	if r.instrumented(path) {
		return false
	}
	return !pure(path, fn.Name())
}

// instrumented says whether the package at path is rewritten too.
func (r *fileRewriter) instrumented(path string) bool {
	if r.pkgs == nil {
		return path == r.pkg.Path()
	}
	return r.pkgs[strings.TrimSuffix(path, "_test")]
}

// purePkgs are standard-library packages whose functions and methods
// neither block nor start goroutines (they may call the test's code back,
// on the caller's goroutine). The operations of sync, sync/atomic, time and
// testing that block or wait are rewritten before this is asked.
var purePkgs = map[string]bool{
	"bytes": true, "cmp": true, "container/heap": true, "container/list": true, "container/ring": true,
	"encoding/base64": true, "encoding/binary": true, "encoding/hex": true, "errors": true,
	"hash": true, "hash/crc32": true, "hash/crc64": true, "hash/fnv": true, "hash/maphash": true,
	"maps": true, "math": true, "math/big": true, "math/bits": true, "math/cmplx": true,
	"math/rand": true, "math/rand/v2": true, "path": true, "regexp": true, "slices": true,
	"sort": true, "strconv": true, "strings": true, "sync": true, "sync/atomic": true,
	"testing": true, "time": true, "unicode": true, "unicode/utf16": true, "unicode/utf8": true,
	"unsafe": true, "crypto/md5": true, "crypto/sha1": true, "crypto/sha256": true, "crypto/sha512": true,
}

// pure says whether function or method name of the package at path is
// pure (purePkgs; fmt's formatting to strings and errors, not its I/O).
func pure(path, name string) bool {
	if path == "fmt" {
		return strings.HasPrefix(name, "Sprint") || strings.HasPrefix(name, "Append") ||
			name == "Errorf" || strings.HasPrefix(name, "Sscan")
	}
	return purePkgs[path]
}

// pureIface says whether the methods of interface t are those of a pure
// package's interface (sort.Interface, fmt.Stringer, error).
func pureIface(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	if n.Obj().Pkg() == nil {
		return true // error
	}
	return pure(n.Obj().Pkg().Path(), "") || n.Obj().Pkg().Path() == "fmt" && n.Obj().Name() == "Stringer"
}

// callWithArgs renders call c with the arguments in args replaced by the
// given texts.
func (r *fileRewriter) callWithArgs(c *ast.CallExpr, args map[ast.Node]string) string {
	return r.spliceWith(c, func(n ast.Node) string {
		if s, ok := args[n]; ok {
			return s
		}
		if n == c.Fun {
			if se, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && se == c.Fun {
				if sel := r.info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
					return r.raw(se.Pos(), se.X.Pos()) + r.recvOperand(se.X, sel) + r.raw(se.X.End(), se.End())
				}
			}
		}
		return r.node(n)
	})
}

func (r *fileRewriter) isType(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	return ok && tv.IsType()
}

// isBuiltin says whether fun names a builtin function, len or unsafe.Slice.
func (r *fileRewriter) isBuiltin(fun ast.Expr) bool { return r.builtinOf(fun) != nil }

func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}

func (r *fileRewriter) exprs(es []ast.Expr) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = r.expr(e)
	}
	return out
}

// lookupOp is the package-level lookupOp for a call in r's file, where a
// method promoted through another package's unexported field cannot be
// given its explicit receiver path (x.inner.Mutex does not compile): a
// mutex's Lock, Unlock, RLock and RUnlock then go through an interface,
// whose runtime finds the mutex from the dynamic type, and other methods
// are left as written.
func (r *fileRewriter) lookupOp(fn *types.Func, sel *types.Selection) (op, string, bool) {
	o, method, ok := lookupOp(fn, sel)
	if !ok || o.recv != recvPtr || !r.hiddenPath(sel) {
		return o, method, ok
	}
	o, ok = hiddenOp(fn)
	return o, "", ok
}

// hiddenOp is the interface call that replaces a mutex's method fn when
// its receiver path cannot be written: the receiver goes as it is
// (recvSelf) and the runtime finds the mutex from its dynamic type.
func hiddenOp(fn *types.Func) (op, bool) {
	switch funcKey(fn) {
	case "sync.Mutex.Lock", "sync.RWMutex.Lock":
		return op{"LockerLock", pct.KindLock, recvSelf}, true
	case "sync.Mutex.Unlock", "sync.RWMutex.Unlock":
		return op{"LockerUnlock", pct.KindUnlock, recvSelf}, true
	case "sync.RWMutex.RLock":
		return op{"IfaceRLock", pct.KindRLock, recvSelf}, true
	case "sync.RWMutex.RUnlock":
		return op{"IfaceRUnlock", pct.KindRUnlock, recvSelf}, true
	}
	return op{}, false
}

// ownLockModels are the runtime functions that say whether a Lock, Unlock,
// RLock or RUnlock called through an interface ran on a standard mutex's
// model (pct.LockModelled, pct.RLockModelled), with the lock argument.
var ownLockModels = map[string][2]string{
	"LockerLock":   {"LockModelled", "true"},
	"LockerUnlock": {"LockModelled", "false"},
	"IfaceRLock":   {"RLockModelled", "true"},
	"IfaceRUnlock": {"RLockModelled", "false"},
}

// ownLockCall renders Lock, Unlock, RLock or RUnlock through an interface,
// as a statement or deferred, so that a method of the code's own (not a
// standard mutex's, which the runtime models) is called by the code's frame,
// not by the runtime's: `if l := interface{ Lock() }(X); !pct.LockModelled(site, l, true) {
// l.Lock() }`. Called from pct.LockerLock, the method's runtime.Caller(1)
// was the runtime's file: syncthing's lib/sync records where a logged
// mutex was locked with runtime.Caller(2), and its TestRWMutex expects the
// test's file there (sweep fresh36). A deferred call takes the receiver
// at the defer statement, as Go does, as an argument of the closure.
func (r *fileRewriter) ownLockCall(c *ast.CallExpr, o op, fn *types.Func, recv string, ctx callCtx) (string, bool) {
	model, ok := ownLockModels[o.fn]
	if !ok || o.recv != recvValue || recv == "" || len(c.Args) != 0 || (ctx != ctxStmt && ctx != ctxDefer) {
		return "", false
	}
	const l = "__gopct_l"
	// The receiver as an interface of the one method: a nil one panics
	// at the call as Go's would.
	iface := "interface{ " + fn.Name() + "() }"
	test := "!" + r.rt(model[0]) + "(" + r.site(o.kind, c) + ", " + l + ", " + model[1] + ")"
	call := l + "." + fn.Name() + "()"
	if ctx == ctxDefer {
		return "func(" + l + " " + iface + ") { if " + test + " { " + call + " } }(" + recv + ")", true
	}
	return "if " + l + " := " + iface + "(" + recv + "); " + test + " { " + call + " }", true
}

// ifaceParams are the parameter types of the runtime functions that take
// a lock as an interface, to which a method value's receiver is converted
// so that Bind's type parameter is that type.
var ifaceParams = map[string]string{
	"LockerLock":   "Locker", // the runtime's alias of sync.Locker
	"LockerUnlock": "Locker",
	"IfaceRLock":   "interface{ RLock() }",
	"IfaceRUnlock": "interface{ RUnlock() }",
}

// hiddenPath reports whether the embedded fields through which sel's
// method is promoted include an unexported field of another package.
func (r *fileRewriter) hiddenPath(sel *types.Selection) bool {
	t := sel.Recv()
	path := sel.Index()
	for _, i := range path[:len(path)-1] {
		st, ok := under(deref(t)).(*types.Struct)
		if !ok {
			return false
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != r.pkg {
			return true
		}
		t = f.Type()
	}
	return false
}

// lookupOp returns the runtime replacement of fn, and the method name for
// testing's failure methods.
func lookupOp(fn *types.Func, sel *types.Selection) (op, string, bool) {
	o, ok := ops[funcKey(fn)]
	method := ""
	if !ok && sel != nil && fn.Pkg().Path() == "testing" && testFailures[fn.Name()] {
		o, ok, method = op{"TError", pct.KindTestFail, recvValue}, true, fn.Name()
	}
	if !ok && sel != nil && fn.Pkg().Path() == "testing" && testLogs[fn.Name()] {
		o, ok, method = op{"TLog", pct.KindOther, recvValue}, true, fn.Name()
	}
	if !ok && sel != nil {
		switch testingTFailure(fn, sel) {
		case "Errorf":
			o, ok = op{"TErrorf", pct.KindTestFail, recvValue}, true
		case "Error":
			o, ok = op{"TErrorArgs", pct.KindTestFail, recvValue}, true
		case "Fatalf":
			o, ok = op{"TFatalf", pct.KindTestFail, recvValue}, true
		case "Logf":
			o, ok = op{"TLogf", pct.KindOther, recvValue}, true
		case "Log":
			o, ok = op{"TLogArgs", pct.KindOther, recvValue}, true
		}
	}
	if !ok && sel != nil && isSubtestRunner(fn, sel) {
		o, ok = op{"TRunner", pct.KindOther, recvValue}, true
	}
	if !ok && sel != nil {
		o, ok = lockerMethod(fn)
	}
	if !ok && sel != nil {
		o, ok = tbLikeMethod(fn)
	}
	if !ok || (o.recv == recvNone) != (sel == nil) {
		return op{}, "", false
	}
	if o.recv == recvCopy && len(sel.Index()) != 1 {
		// promoted from an embedded field: left as it is
		return op{}, "", false
	}
	return o, method, true
}

// lockerMethod recognises Lock and Unlock called through an interface of
// the code's own that has both, as sync.Locker has (go-sqlmock's
// expectation), and RLock and RUnlock through any interface: such a call
// is LockerLock, LockerUnlock, IfaceRLock or IfaceRUnlock, which the
// runtime models when the value's method is a standard mutex's, its own or
// promoted from an embedded field (pct's lockTarget), and calls as written
// otherwise.
func lockerMethod(fn *types.Func) (op, bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Params().Len() != 0 {
		return op{}, false
	}
	if sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		switch fn.Name() {
		case "TryLock":
			return op{"IfaceTryLock", pct.KindLock, recvValue}, true
		case "TryRLock":
			return op{"IfaceTryRLock", pct.KindRLock, recvValue}, true
		}
	}
	if sig.Results().Len() != 0 {
		return op{}, false
	}
	switch fn.Name() {
	case "Lock":
		return op{"LockerLock", pct.KindLock, recvValue}, isLocker(sig.Recv().Type())
	case "Unlock":
		return op{"LockerUnlock", pct.KindUnlock, recvValue}, isLocker(sig.Recv().Type())
	case "RLock":
		return op{"IfaceRLock", pct.KindRLock, recvValue}, true
	case "RUnlock":
		return op{"IfaceRUnlock", pct.KindRUnlock, recvValue}, true
	}
	return op{}, false
}

// tbMethods are the names of testing.TB's methods.
var tbMethods = map[string]bool{"Attr": true, "Chdir": true, "Cleanup": true, "Context": true, "Error": true,
	"Errorf": true, "Fail": true, "FailNow": true, "Failed": true, "Fatal": true, "Fatalf": true, "Helper": true,
	"Log": true, "Logf": true, "Name": true, "Output": true, "Setenv": true, "Skip": true, "SkipNow": true,
	"Skipf": true, "Skipped": true, "TempDir": true}

// tbLikeMethod recognises Cleanup(f) and Name() called through an interface
// of the code's own made of testing.TB's methods only, which a *testing.T
// satisfies: k8s.io/klog/v2's ktesting registers its logger's stop through
// `interface{ Cleanup(func()); Name() string }` (sweep fresh34), and the
// call, not on testing.TB itself, went to the shared t of the subtest, so
// the stop ran only after the top-level test and the name was the test's.
// Such a call is TCleanupOf or TNameOf, which treat a testing.TB as TCleanup
// and TName do and call anything else as written.
func tbLikeMethod(fn *types.Func) (op, bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return op{}, false
	}
	var o op
	switch {
	case fn.Name() == "Cleanup" && sig.Params().Len() == 1 && sig.Results().Len() == 0:
		f, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
		if !ok || f.Params().Len() != 0 || f.Results().Len() != 0 {
			return op{}, false
		}
		o = op{"TCleanupOf", pct.KindOther, recvValue}
	case fn.Name() == "Name" && sig.Params().Len() == 0 && sig.Results().Len() == 1 &&
		types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]):
		o = op{"TNameOf", pct.KindOther, recvValue}
	case isSkipMethod(fn.Name(), sig):
		o = op{"T" + fn.Name() + "Of", pct.KindOther, recvValue}
	default:
		return op{}, false
	}
	ms := types.NewMethodSet(sig.Recv().Type())
	for i := range ms.Len() {
		if !tbMethods[ms.At(i).Obj().Name()] {
			return op{}, false
		}
	}
	return o, true
}

// isSkipMethod reports whether name and sig are testing.TB's Skip(...any),
// Skipf(string, ...any) or SkipNow(): a subtest's skip through an interface
// of the code's own ends that subtest (TSkipOf, TSkipfOf, TSkipNowOf).
func isSkipMethod(name string, sig *types.Signature) bool {
	if sig.Results().Len() != 0 {
		return false
	}
	p := sig.Params()
	switch name {
	case "SkipNow":
		return p.Len() == 0
	case "Skip":
		return sig.Variadic() && p.Len() == 1 && isAnySlice(p.At(0).Type())
	case "Skipf":
		return sig.Variadic() && p.Len() == 2 && types.Identical(p.At(0).Type(), types.Typ[types.String]) &&
			isAnySlice(p.At(1).Type())
	}
	return false
}

// isAnySlice reports whether t is []any.
func isAnySlice(t types.Type) bool {
	s, ok := t.(*types.Slice)
	if !ok {
		return false
	}
	i, ok := s.Elem().Underlying().(*types.Interface)
	return ok && i.Empty()
}

// isLocker reports whether t's method set has Lock() and Unlock(), so that
// a value of t converts to sync.Locker.
func isLocker(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for _, name := range []string{"Lock", "Unlock"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			return false
		}
		sig, ok := sel.Type().(*types.Signature)
		if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return false
		}
	}
	return true
}

// testingTFailure recognises t.Errorf(format, args...) and t.Error(args...)
// on an interface named TestingT, through which test libraries report
// failures (testify's assert and require use Errorf, go.uber.org/goleak's
// VerifyNone Error): the runtime quotes the message. Logf and Log on it
// too (zaptest logs through it): the runtime checks that the test has not
// completed. It returns the method's name, or "" for any other call.
// reporterInterfaces are the names test libraries give the interface
// through which they report to *testing.T: testify's TestingT, gomock's
// TestReporter and TestHelper (its Controller fails with T.Fatalf).
var reporterInterfaces = map[string]bool{"TestingT": true, "TestReporter": true, "TestHelper": true}

func testingTFailure(fn *types.Func, sel *types.Selection) string {
	named, ok := sel.Recv().(*types.Named)
	if !ok || !reporterInterfaces[named.Obj().Name()] || !types.IsInterface(named) {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() || sig.Results().Len() != 0 {
		return ""
	}
	params := sig.Params()
	switch {
	case (fn.Name() == "Errorf" || fn.Name() == "Fatalf" || fn.Name() == "Logf") && params.Len() == 2:
		format, ok := params.At(0).Type().(*types.Basic)
		if !ok || format.Kind() != types.String {
			return ""
		}
	case (fn.Name() == "Error" || fn.Name() == "Log") && params.Len() == 1:
	default:
		return ""
	}
	args, _ := params.At(params.Len() - 1).Type().(*types.Slice)
	if args == nil {
		return ""
	}
	if elem, ok := args.Elem().Underlying().(*types.Interface); !ok || !elem.Empty() {
		return ""
	}
	return fn.Name()
}

// isSubtestRunner recognises r.Run(name, f) on an interface whose Run has
// t.Run's signature, func(string, func(*testing.T)) bool: testify's
// suite.Run before v1.11 starts each suite method through its unexported
// interface runner, which holds the *testing.T. Left as it was, the call
// reached the real t.Run, which the bubble refuses.
func isSubtestRunner(fn *types.Func, sel *types.Selection) bool {
	if fn.Name() != "Run" || !types.IsInterface(sel.Recv()) {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 2 || sig.Results().Len() != 1 || sig.Variadic() {
		return false
	}
	name, ok := sig.Params().At(0).Type().(*types.Basic)
	if !ok || name.Kind() != types.String {
		return false
	}
	res, ok := sig.Results().At(0).Type().(*types.Basic)
	if !ok || res.Kind() != types.Bool {
		return false
	}
	f, ok := sig.Params().At(1).Type().(*types.Signature)
	return ok && f.Params().Len() == 1 && f.Results().Len() == 0 && isTestingT(f.Params().At(0).Type())
}

// isTestingT says whether t is *testing.T.
func isTestingT(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T"
}

// specialRecv renders the receiver argument of a modelled call (empty for
// a package-level function, whose qualified name is kept alive instead).
func (r *fileRewriter) specialRecv(c *ast.CallExpr, sel *types.Selection, o op, method string) string {
	if sel == nil {
		r.keep[r.keepName(c.Fun)] = true
		return ""
	}
	if o.recv == recvCopy {
		return r.expr(ast.Unparen(c.Fun).(*ast.SelectorExpr).X)
	}
	if o.recv == recvSelf {
		return r.recvOperand(ast.Unparen(c.Fun).(*ast.SelectorExpr).X, sel)
	}
	// testing's methods promoted from its unexported common (t.Cleanup)
	// take the exported type.
	pkg := sel.Obj().Pkg()
	return r.recvArg(ast.Unparen(c.Fun).(*ast.SelectorExpr), sel, method != "" || pkg != nil && pkg.Path() == "testing")
}

// keepName is the text kept alive (var _ = X) for the package of a
// rewritten package-level function: the function itself, or for a generic
// one (which cannot be used uninstantiated) a plain function of the same
// package.
func (r *fileRewriter) keepName(fun ast.Expr) string {
	text := string(r.src[r.off(fun.Pos()):r.off(fun.End())])
	fn, _ := r.callee(fun)
	if fn == nil || fn.Type().(*types.Signature).TypeParams().Len() == 0 {
		return text
	}
	qual, _, ok := strings.Cut(text, ".")
	if !ok {
		return text
	}
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		if f, ok := scope.Lookup(name).(*types.Func); ok && f.Exported() && f.Type().(*types.Signature).TypeParams().Len() == 0 {
			return qual + "." + name
		}
	}
	return text
}

// special renders the runtime call for op o.
func (r *fileRewriter) special(c *ast.CallExpr, o op, recv, method string, args []string) string {
	parts := []string{r.site(o.kind, c)}
	if recv != "" {
		parts = append(parts, recv)
	}
	if method != "" {
		parts = append(parts, strconv.Quote(method))
		if c.Ellipsis.IsValid() && len(args) > 1 {
			// t.Errorf(format, args...): TError's own variadic list
			// takes the format too, and Go allows no argument before a
			// spread slice.
			args = []string{r.rt("Spread") + "([]interface{}{" + strings.Join(args[:len(args)-1], ", ") + "}, " + args[len(args)-1] + ")"}
		}
	}
	parts = append(parts, args...)
	s := r.rt(o.fn) + "(" + strings.Join(parts, ", ")
	if c.Ellipsis.IsValid() {
		s += "..."
	}
	return s + ")"
}

// recvArg renders the receiver argument of a runtime call for the method
// selected by fun: the explicit path through embedded fields (from
// sel.Index), and & when the runtime wants a pointer to a value. For
// testing's methods the path stops at testing's exported type, since the
// methods are promoted from an unexported one.
func (r *fileRewriter) recvArg(fun *ast.SelectorExpr, sel *types.Selection, testing bool) string {
	t := r.info.TypeOf(fun.X)
	var text string
	if isPtr(t) || types.IsInterface(t) {
		text = r.expr(fun.X)
	} else {
		text = r.addr(fun.X)
	}
	return r.fieldPath(text, t, sel.Index(), testing)
}

// fieldPath renders the receiver argument of the runtime for text, an
// operand of type t (a pointer, an interface, or the address of a value of
// t), followed by the embedded fields of path but its last (the method's
// own index).
func (r *fileRewriter) fieldPath(text string, t types.Type, path []int, testing bool) string {
	for _, i := range path[:len(path)-1] {
		if testing && isTestingType(t) {
			break
		}
		st, ok := under(deref(t)).(*types.Struct)
		if !ok {
			break
		}
		f := st.Field(i)
		text += "." + f.Name()
		t = f.Type()
	}
	if isPtr(t) || types.IsInterface(t) {
		return text
	}
	return "&" + text
}

func deref(t types.Type) types.Type {
	if p, ok := under(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func isTestingType(t types.Type) bool {
	n, ok := types.Unalias(deref(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing"
}

// atomicCall puts a scheduling point before a sync/atomic call.
//
// A function of sync/atomic whose first argument is the address it works on
// (atomic.AddInt32(&x, 1)) tells the runtime that address, so that the race
// detector can check the operation against plain accesses to the memory:
// the first argument becomes AtomicAt(site, &x), which is the point and
// returns the address (nothing else is evaluated before the operation, as
// argsCall is false), or PointAt(site, a) with the arguments hoisted.
func (r *fileRewriter) atomicCall(c *ast.CallExpr, ctx callCtx) string {
	sig, _ := r.info.TypeOf(c.Fun).(*types.Signature)
	addr := r.atomicAddr(c)
	if ctx == ctxStmt && r.argsCall(c) {
		return r.atomicHoisted(c, addr)
	}
	kind := atomicKind(r.info, c)
	if ctx == ctxDefer {
		return r.plainCall(c) + r.deferredAtomicPoint(c, addr, kind)
	}
	if addr != nil && !r.argsCall(c) {
		return r.callWithArgs(c, map[ast.Node]string{
			addr: r.rt("AtomicAt") + "(" + r.site(kind, c) + ", " + r.expr(addr) + ")"})
	}
	if se, recv := r.atomicRecv(c); recv != "" && !r.argsCall(c) {
		return r.rt("AtomicAt") + "(" + r.site(kind, c) + ", " + recv + ")." + se.Sel.Name + "(" + strings.Join(r.exprs(c.Args), ", ") + ")"
	}
	call := r.plainCall(c)
	switch {
	case ctx == ctxStmt:
		return r.rt("Point") + "(" + r.site(kind, c) + "); " + call
	case sig == nil || sig.Results().Len() != 1:
		return call
	}
	return r.rt("Seq") + "(" + r.rt("Point") + "(" + r.site(kind, c) + "), " + call + ")"
}

// atomicAddr returns the first argument of c when c calls a function of
// package sync/atomic (not a method of its types) whose first parameter is
// a pointer: the address the operation works on. nil otherwise.
func (r *fileRewriter) atomicAddr(c *ast.CallExpr) ast.Expr {
	se, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	id, ok := ast.Unparen(se.X).(*ast.Ident)
	if !ok {
		return nil
	}
	pkg, ok := r.info.Uses[id].(*types.PkgName)
	if !ok || pkg.Imported().Path() != "sync/atomic" {
		return nil
	}
	sig, ok := r.info.TypeOf(c.Fun).(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return nil
	}
	if _, ok := sig.Params().At(0).Type().Underlying().(*types.Pointer); !ok {
		return nil
	}
	if _, tuple := r.info.TypeOf(c.Args[0]).(*types.Tuple); tuple {
		return nil
	}
	return c.Args[0]
}

// deferredAtomicPoint follows a deferred atomic call with a second defer,
// which runs just before it (deferred calls run last in, first out): its
// scheduling point and event, PointAt on its address when evaluating that
// again calls nothing, Point otherwise. A deferred call had neither: a
// deferred flag.Store(true) published nothing, and the race detector took
// the write before it and the read after a Load that saw the flag for a
// race (testscript race_atomic_address).
func (r *fileRewriter) deferredAtomicPoint(c *ast.CallExpr, addr ast.Expr, kind pct.SiteKind) string {
	site := r.site(kind, c)
	p := ""
	if addr != nil && !hasCall(addr) {
		p = r.expr(addr)
	} else if se, recv := r.atomicRecv(c); recv != "" && !hasCall(se.X) {
		p = recv
	}
	if p == "" {
		return "; defer " + r.rt("Point") + "(" + site + ")"
	}
	return "; defer " + r.rt("PointAt") + "(" + site + ", " + p + ")"
}

// atomicRecv returns, for a method call on a value of a sync/atomic type
// or a sync.Map (x.n.Add(1), m.Load(k)), the selector and the address of
// the receiver, rendered: the address the operation works on, which the
// event carries as for atomicAddr's functions, so that operations on
// different variables do not order each other. "" for a method promoted
// from an embedded field (the address would be the outer struct's) or a
// receiver that is not a pointer or addressable.
func (r *fileRewriter) atomicRecv(c *ast.CallExpr) (*ast.SelectorExpr, string) {
	se, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	sel := r.info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal || len(sel.Index()) != 1 || !ptrRecv(sel) {
		return nil, ""
	}
	switch t := r.info.TypeOf(se.X); {
	case isPtr(t):
		return se, r.expr(se.X)
	case r.info.Types[se.X].Addressable():
		return se, "&" + r.addr(se.X)
	}
	return nil, ""
}

// atomicKind tells the atomic operations that only read (Load*, sync.Map's
// Load and Range), which are not progress for livelock detection, from
// those that may write.
func atomicKind(info *types.Info, c *ast.CallExpr) pct.SiteKind {
	var name string
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.SelectorExpr:
		name = f.Sel.Name
	case *ast.Ident:
		name = f.Name
	}
	if strings.HasPrefix(name, "Load") || name == "Range" {
		return pct.KindAtomicLoad
	}
	return pct.KindAtomic
}

// argsCall reports whether an argument of c calls a function or receives
// (n.Store(n.Load()+1)): the point must then come after the arguments.
func (r *fileRewriter) argsCall(c *ast.CallExpr) bool {
	if len(c.Args) == 1 {
		if _, tuple := r.info.TypeOf(c.Args[0]).(*types.Tuple); tuple {
			return false
		}
	}
	found := false
	for _, a := range c.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				found = found || !r.isType(ast.Unparen(n.Fun))
			case *ast.UnaryExpr:
				found = found || n.Op == token.ARROW
			}
			return !found
		})
	}
	return found
}

// atomicHoisted renders an atomic call statement whose arguments call
// functions: the arguments are evaluated into temporaries first, then the
// scheduling point, then the call, so that a read-modify-write spelled
// n.Store(n.Load()+1) is preemptible between its load and its store.
func (r *fileRewriter) atomicHoisted(c *ast.CallExpr, addr ast.Expr) string {
	var pre []string
	args := map[ast.Node]string{}
	for _, a := range c.Args {
		if tv := r.info.Types[a]; tv.Value != nil || tv.IsNil() {
			continue // constants keep their (untyped) meaning in place
		}
		t := r.tmp("a")
		pre = append(pre, t+" := "+r.expr(a))
		args[a] = t
	}
	site := r.site(atomicKind(r.info, c), c)
	if t, ok := args[addr]; ok && addr != nil {
		pre = append(pre, r.rt("PointAt")+"("+site+", "+t+")", r.callWithArgs(c, args))
	} else {
		pre = append(pre, r.rt("Point")+"("+site+")", r.callWithArgs(c, args))
	}
	return "{ " + strings.Join(pre, "; ") + " }"
}

// builtinCall renders a call of a builtin: close and the map operations go
// to the runtime, len/cap of a channel get a scheduling point.
func (r *fileRewriter) builtinCall(c *ast.CallExpr, name string, ctx callCtx) string {
	switch name {
	case "Offsetof", "Sizeof", "Alignof":
		// unsafe's: the argument is not evaluated, and Offsetof's must
		// stay a selector (a generic struct's offset is no constant, so
		// isStatic does not keep these as they are).
		return r.text(c)
	case "new", "make", "append":
		return r.allocBuiltin(c)
	case "close":
		return r.rt("Close") + "(" + r.site(pct.KindClose, c) + ", " + r.expr(c.Args[0]) + ")"
	case "delete":
		if m, ok := under(r.info.TypeOf(c.Args[0])).(*types.Map); ok && r.fits(c.Args[1], m.Key()) {
			return r.rt("MapDelete") + "(" + r.site(pct.KindMapWrite, c) + ", " + r.expr(c.Args[0]) + ", " + r.expr(c.Args[1]) + ")"
		}
	case "clear":
		if isMap(r.info.TypeOf(c.Args[0])) {
			return r.rt("MapClear") + "(" + r.site(pct.KindMapWrite, c) + ", " + r.expr(c.Args[0]) + ")"
		}
	case "copy":
		if call := r.copyCall(c); call != "" {
			return call
		}
	case "len", "cap":
		if _, ok := under(r.info.TypeOf(c.Args[0])).(*types.Chan); ok && ctx == ctxValue {
			return r.rt("Seq") + "(" + r.rt("Point") + "(" + r.site(pct.KindOther, c) + "), " + r.splice(c) + ")"
		}
	}
	return r.splice(c)
}

// copyCall renders copy(dst, src) as the runtime's Copy or CopyString (a
// write at the call, then the elements' accesses: pct/copy.go), or "" when
// an operand's core type is neither a slice nor a string (a type parameter
// that may be either) and the copy stays as it is.
func (r *fileRewriter) copyCall(c *ast.CallExpr) string {
	if len(c.Args) != 2 || c.Ellipsis.IsValid() {
		return ""
	}
	if _, ok := load.CoreType(r.info.TypeOf(c.Args[0])).(*types.Slice); !ok {
		return ""
	}
	fn := "Copy"
	switch src := load.CoreType(r.info.TypeOf(c.Args[1])).(type) {
	case *types.Slice:
	case *types.Basic:
		if src.Info()&types.IsString == 0 || mayBeBytes(r.info.TypeOf(c.Args[1])) {
			return ""
		}
		fn = "CopyString"
	default:
		return ""
	}
	return r.rt(fn) + "(" + r.site(pct.KindWrite, c) + ", " + r.expr(c.Args[0]) + ", " + r.expr(c.Args[1]) + ")"
}

// mayBeBytes says whether t is a type parameter that []byte satisfies
// (~string | ~[]byte, whose core type is string for copy).
func mayBeBytes(t types.Type) bool {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return false
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	return ok && types.Satisfies(types.NewSlice(types.Typ[types.Byte]), iface)
}

// methodValue renders a method value x.M of a modelled method without
// arguments (f := mu.Lock) as a closure calling the runtime. The receiver
// is evaluated now, as for a method value.
func (r *fileRewriter) methodValue(e *ast.SelectorExpr, sel *types.Selection) string {
	o, bind, ok := r.bindable(sel)
	if !ok {
		return ""
	}
	recv := r.recvArg(e, sel, false)
	if o.recv == recvSelf {
		t := ifaceParams[o.fn]
		if t == "Locker" {
			t = r.rt(t)
		}
		recv = t + "(" + r.recvOperand(e.X, sel) + ")"
	}
	return r.rt(bind) + "(" + r.site(o.kind, e) + ", " + recv + ", " + r.rt(o.fn) + ")"
}

// methodExpr renders a method expression of a modelled method as a
// function calling the runtime: (*sync.Mutex).Lock as Expr, and one whose
// receiver is another type ((*T).Lock promoted from T's mutex,
// sync.Locker.Lock, an interface's RLock) as a function literal taking
// the receiver, of the type the expression names. Before, (*T).Lock made
// the build fail (exit 2) and sync.Locker.Lock locked the real mutex only.
func (r *fileRewriter) methodExpr(e *ast.SelectorExpr, sel *types.Selection) string {
	o, bind, ok := r.bindable(sel)
	if !ok {
		return ""
	}
	expr := map[string]string{"Bind": "Expr", "Bind1": "Expr1"}[bind]
	if o.recv == recvPtr && isPtr(sel.Recv()) && len(sel.Index()) == 1 {
		return r.rt(expr) + "(" + r.site(o.kind, e) + ", " + r.rt(o.fn) + ")"
	}
	if bind != "Bind" {
		return "" // the argument's type would have to be written
	}
	const p = "__gopctR"
	recv := p
	if o.recv == recvPtr {
		recv = r.fieldPath(p, sel.Recv(), sel.Index(), false)
	}
	return "func(" + p + " " + r.text(e.X) + ") { " + r.rt(o.fn) + "(" + r.site(o.kind, e) + ", " + recv + ") }"
}

// bindable returns the runtime replacement of a selected method with no
// results and at most one parameter, and the helper that binds it: a
// modelled method, a mutex's promoted through another package's
// unexported field (hiddenOp), or Lock, Unlock, RLock or RUnlock of an
// interface (lockerMethod), the last two taking the receiver as it is.
func (r *fileRewriter) bindable(sel *types.Selection) (op, string, bool) {
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return op{}, "", false
	}
	o, ok := ops[funcKey(fn)]
	if ok && o.recv == recvPtr && r.hiddenPath(sel) {
		o, ok = hiddenOp(fn)
	}
	if !ok && types.IsInterface(sel.Recv()) {
		if o, ok = lockerMethod(fn); ok {
			o.recv = recvSelf
		}
	}
	sig := fn.Type().(*types.Signature)
	if !ok || o.recv == recvNone || o.recv == recvCopy || sig.Results().Len() != 0 || sig.Params().Len() > 1 || sig.Variadic() {
		return op{}, "", false
	}
	if sig.Params().Len() == 1 {
		return o, "Bind1", true
	}
	return o, "Bind", true
}

// packageLevel says whether x denotes a package-level variable or a field
// of one reached without a pointer: storage that lives as long as the
// process, as a package's own sync.Once does.
func (r *fileRewriter) packageLevel(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[x].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		sel := r.info.Selections[x]
		if sel == nil {
			return r.packageLevel(x.Sel) // a qualified identifier: pkg.once
		}
		return sel.Kind() == types.FieldVal && !sel.Indirect() && !isPtr(r.info.TypeOf(x.X)) && r.packageLevel(x.X)
	}
	return false
}
