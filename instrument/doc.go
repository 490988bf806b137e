// Package instrument rewrites the packages of a user's module so that their
// tests run under gopct's controlled scheduler, without touching the user's
// files or go.mod.
//
// Instrument loads the packages matching some patterns (through package
// internal/load, or takes the caller's load in Config.Program so that the
// alias analysis sees the same packages), with their tests and every
// main-module package they import, rewrites each file's source text with
// go/types information, and writes the rewritten files into a temporary
// directory referenced by a `go -overlay` file. Two modules are required
// and replaced through an overlaid go.mod: the runtime (the sources of
// package pct, helpers.go included, as gopct.invalid/rt), the same in
// every build, and the sites module (gopct.invalid/sites), this build's
// generated tables, registered from init functions: the site table
// zz_gopct_sites.go and, added by Result.WriteSiteVars before
// Result.Build (through the overlay), zz_gopct_sitevars.go, the alias analysis's table
// (VarTable: which variables of Q each site may touch, joined on site
// names; -1 for a site it does not know). Every instrumented file imports
// the runtime; only test files import the sites module (sitesImported).
// With Config.RuntimeCache the runtime, the sites module and the copies of
// dependency modules are written once per content into directories builds
// share (sharedDir), so the go command's build cache, which keys a package
// by its directory and by its imports' compiled contents, compiles them
// once (the runtime: ~2.5 s of CPU per build saved); a site table too
// large for the runtime's gate (pct.SharedGateSize) gets a runtime of its
// own with a gate to fit. Site ids are given to the dependencies' files
// first, then the module's, its test files last (units), so that editing
// a test recompiles only the tests' package (testify: ~10 s of a rebuild).
// Result.Build compiles the instrumented test binary. Config.Deps names
// dependency modules to instrument too (copied out of the module cache,
// which the go command does not let overlays touch, and replaced).
//
// Rewrites (see the rules in DESIGN.md §5): test functions run their body
// through RunTest; go statements evaluate their function value and arguments
// in the parent and start the child through Go; channel operations, select,
// range over channels, close, reflect.Value's Recv, Send and Close and
// reflect.Select, the sync types' methods (also promoted through
// embedding), sync/atomic calls, time's sleeps, timers and tickers,
// context.WithTimeout/WithDeadline, testing's failure methods, t.Run and
// t.Parallel, map operations (range over a map becomes a for loop over
// MapWalk, sorted keys, in every language version; maps.Keys, Values and All
// become iterators over MapWalk, and sync.Map.Range visits in MapWalk's order), the top-level functions
// of math/rand and math/rand/v2 (the execution's own source, rand.go) and
// accesses to possibly-shared memory go through the runtime. Method values and expressions of modelled methods
// become Bind/Expr closures (or function literals, for a method
// expression whose receiver is not the mutex itself: (*T).Lock). Lock,
// Unlock, RLock and RUnlock of an interface, called or taken as values,
// and a mutex's promoted through another package's unexported field
// (whose path cannot be written) go to the runtime with the receiver as
// it is, and the runtime finds the mutex from its dynamic type
// (pct/lockers.go); sync.OnceFunc/OnceValue(s) use the modelled
// Once; sync.Map methods get a scheduling point like atomics, and an atomic
// call whose arguments call functions evaluates them first. make(chan)
// goes through MakeChan, which remembers channels made outside executions.
//
// Profiling registration (alloc.go): the runtime's profiling mode names
// the memory each executed site touches with the alias analysis's names.
// Allocation expressions of the module's code are wrapped in
// Alloc(site, EXPR), a generic identity, with a KindAlloc site at the
// expression's start: &T{...} (at '&'), new(...), make(...), slice and map
// composite literals, string-to-slice conversions, and append, written
// XAppend(site, s)(v...) so that only a new backing array is registered.
// Elided-type literals inside an outer literal ([]*T{{...}}) are written out
// (&T{...}) when the printed type type-checks to the same type at that
// position, and left alone otherwise. Every shared local variable or
// parameter (escape.go: its address is taken, or a closure that may run in
// another goroutine captures it and it is assigned after its declaration)
// is registered with Local(site, &x), the site at its declaring
// identifier; a variable captured only to be read is not (no site touches
// it, and &x would make the compiler heap-allocate it): after its := or var statement, at function
// entry for parameters, receivers and named results, at the start of each
// body in scope for variables of if/switch/for/range headers, type-switch
// symbols and select cases. Package-level variables are registered as
// "importpath.Name" with Global from the init function of a file generated
// into the overlay, per directory and kind so that it compiles in every
// variant: zz_gopct_globals.go (the package's files),
// zz_gopct_globals_test.go (in-package test files) and
// zz_gopct_globals_x_test.go (the external test package). Not registered:
// allocations in constant contexts, &[]T{...}'s backing array (the alias
// analysis gives it the '&' name too), implicit allocations (variadic
// argument slices, closures, interface boxes, string concatenation).
//
// Invariants:
//   - User files are never written; every output lives under Result.WorkDir.
//   - Rewriting is textual: original text is copied and only rewritten
//     constructs are replaced, so comments, directives (//go:build stays
//     before the package clause) and formatting survive. Generated text never
//     contains a newline; where original text moves to another line a
//     /*line file:line:col*/ directive restores its position, so compiler
//     errors, panics and stack traces name the user's lines.
//   - The rewrite of a file depends only on its own syntax and types, so one
//     rewritten file serves every variant of its package (p and p [p.test]).
//   - Site ids are dense and deterministic: files are numbered in order of
//     package path then file name, sites in rendering (source) order.
//   - Sites are named by load.Namer: "file:line:col" of the node's start,
//     physical position, file relative to the module root (dependency
//     files "module@version/file"), the names the alias analysis uses.
//   - Evaluation order is Go's: no call or channel operation moves across
//     another; operands evaluated once in Go are evaluated once (through
//     temporaries where needed); constants stay constant.
//   - Generated identifiers start with __gopct; the runtime is imported as
//     __gopct.
//
// Errors caused by the user's code or setup (type errors, no module, cgo)
// satisfy errors.Is(err, ErrUser) and are *UserError values.
package instrument
