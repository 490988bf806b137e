// Package instrument rewrites the packages of a user's module so that their
// tests run under gopct's controlled scheduler, without touching the user's
// files or go.mod.
//
// Instrument loads the packages matching some patterns, with their tests
// and every main-module package they import, rewrites each file's source
// text with go/types information, and writes the rewritten files, the
// runtime package (the sources of package pct, placed at
// <module>/internal/gopctrt) and a generated site table into a temporary
// directory referenced by a `go -overlay` file. Result.Build compiles the
// instrumented test binary.
//
// Rewrites (see the rules in DESIGN.md §5): test functions run their body
// through RunTest; go statements evaluate their function value and arguments
// in the parent and start the child through Go; channel operations, select,
// range over channels, close, the sync types' methods (also promoted through
// embedding), sync/atomic calls, time's sleeps, timers and tickers,
// context.WithTimeout/WithDeadline, testing's failure methods, map
// operations and accesses to possibly-shared memory go through the runtime.
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
//   - Evaluation order is Go's: no call or channel operation moves across
//     another; operands evaluated once in Go are evaluated once (through
//     temporaries where needed); constants stay constant.
//   - Generated identifiers start with __gopct; the runtime is imported as
//     __gopct.
//
// Errors caused by the user's code or setup (type errors, no module, cgo)
// satisfy errors.Is(err, ErrUser) and are *UserError values.
package instrument
