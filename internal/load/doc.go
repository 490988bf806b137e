// Package load is the one place where gopct loads a user's packages and
// names source positions. The instrumenter (instrument/) and the points-to
// analysis (alias/) both go through it, so that the packages they see are
// the same load and a site name computed by one is, by construction, the
// name computed by the other: the runtime's site table (built by the
// instrumenter) and the analysis's site→variable table are joined on these
// names.
//
// Packages runs go/packages once, with the patterns' tests and the syntax
// and types of every dependency (what SSA needs and what the instrumenter
// rewrites); Program.SSA builds the whole program in SSA form on first
// use, instantiating generic functions, and reuses it afterwards.
//
// Invariants:
//   - A site is named "file:line:col" (Namer.Pos): the file relative to the
//     main module's root with forward slashes, or "module@version/file" for
//     a file of an instrumented dependency module; line and column are the
//     physical ones (//line directives are ignored), columns count bytes
//     from 1, as go/token does.
//   - The main module is the one go/packages marks Main (MainModule).
//   - Errors caused by the user's setup (no module, the go command
//     failing) are *usererr.Error values; type errors in packages are left
//     in the packages for the caller to judge, since the instrumenter and
//     the analysis accept different sets of packages.
package load
