// Package alias is gopct's points-to analysis: it computes the universe Q
// of variables of a module's tests and, for every variable, the source
// sites that may read or write it. Every build runs it (campaign.Build,
// over the instrumenter's own load through FromLoad, cached beside the
// binary) and compiles its site→variable table (Result.SiteVars) into
// the runtime, which can then make only the memory sites of chosen
// variables scheduling points (gopct hunt -vars; variable bounding). An
// analysis that fails or passes Options.Deadline (ErrTooSlow) leaves
// every site "unknown" instead of failing the build. Profiling runs are
// checked against it (Result.Check); `gopct vars` prints it.
//
// # Analysis
//
// Inclusion-based (Andersen), field-sensitive, context-insensitive, over
// golang.org/x/tools/go/ssa built with ssa.InstantiateGenerics (every
// generic function is analysed per instance). The call graph is built on
// the fly: a function's constraints are generated when it becomes
// reachable from the roots (every package initializer, plus the tests
// selected by -run or, without -run, every function of the module).
//
// Abstract objects are allocation sites (ssa.Alloc, MakeSlice, MakeMap,
// MakeChan, the growth array of append, []byte(s) conversions), package
// variables (ssa.Global), interface boxes and functions. An object is a
// block of cells, one per pointer-like leaf of its type (struct fields
// flattened, all array elements sharing one abstract element, a map being
// one key block and one value block, a channel one element block).
// Scalars get no cell; a pointer to a scalar field designates a neighbour
// cell of the same object, which is harmless because no pointer is loaded
// from it. Points-to sets hold dense cell ids (intsets.Sparse). The solver
// is a FIFO worklist with difference propagation (a node pushes only what
// it gained since its last visit) and periodic collapse of copy-edge
// cycles (Tarjan, every max(20000, nodes/4) visits; the nodes of a cycle
// share one set).
//
// Addresses computed outside the module whose only uses load or store
// pointer-free values (&t[i] = c in the standard library's huge table
// initialisers) get no node: such loads and stores have no constraint, so
// dropping them loses no flow. In the benchmark this removes two thirds
// of the nodes.
//
// Calls: static calls bind parameters directly; calls through func values
// and interface method calls (invoke) become constraints that bind each
// function object, or each box's concrete method, as it appears. Closures:
// MakeClosure copies its bindings into the function's free variables
// (context-insensitively, which equals one closure object per function).
// Method values and expressions are the $bound and thunk wrappers SSA
// creates. Embedded fields are FieldAddr chains. Boxes are per conversion
// site in the module's code and per dynamic type elsewhere.
//
// # What is summarised, and the soundness assumptions
//
// The standard library is analysed from source, except the packages whose
// Go code defeats a typed analysis: runtime, reflect, internal/reflectlite,
// unsafe, internal/abi, internal/bytealg, internal/runtime/... . Calls into
// them, and calls of functions without a body (assembly, linkname), go
// through one "havoc" node: every pointer argument flows into it, and so
// does everything reachable from it (reads are followed transitively); each
// pointer-like result receives the havoc pointees its static type admits
// (a box of a type implementing the interface, a function of identical
// signature, a map of identical key and value types, a channel of
// identical element type, the start of an object of the pointee type).
// The filter is what keeps the solution precise: a map parameter of a
// callback that reached havoc once received every map of the program, and
// loads from it mixed the cells of unrelated types, which spread to
// ~20,000 sets of more than 1,000 cells in net/http and crypto/tls. In Go
// without unsafe a value of a map or channel type only ever holds maps or
// channels of that type, so the filter drops no real flow. Functions that
// reach havoc are treated as called with such arguments (callbacks given
// to the runtime: AfterFunc, SetFinalizer). Hand-written exact summaries
// replace the havoc for sync/atomic's *Pointer functions and atomic.Value
// (their Go code type-puns), runtime.KeepAlive and internal/race (no-ops).
// Arguments that point to pointer-free memory (the runtime's semaphores)
// do not reach havoc.
//
// Assumptions, each a possible source of a missed (site, variable) pair,
// which Check detects against profiling runs:
//   - unknown code does not store pointers it was given into other memory
//     it was given (reflect.Value.Set of an existing object into another,
//     errors.As writing through its target);
//   - an unsafe.Pointer returned by unknown code, or made from a uintptr,
//     points nowhere the module's accesses care about; pointer conversions
//     through unsafe.Pointer keep the pointee, and offsets that overrun an
//     object after type punning are dropped;
//   - interior pointers handed out by unknown code are not modelled.
//
// # Measuring
//
// Stats reports nodes, edges, visits, set sizes and the time of
// constraint generation. GOPCT_ALIAS_DEBUG=1 prints solver progress and,
// after the solve, a report (debug.go): the set-size histogram, the largest
// sets with the SSA value or object they belong to, the cells contained in
// the most sets, and the pointer values whose pointees are cells where no
// value of their pointee type starts (type confusion: the usual seed of
// imprecision). GOPCT_ALIAS_MAXVISITS=N stops the solve after N visits,
// GOPCT_ALIAS_DUMP=REGEXP prints the sets of the matching nodes.
//
// # Q, sites and the position convention
//
// Packages are loaded, and positions named, by package internal/load,
// which the instrumenter uses too: the runtime's site names and the
// analysis's are the same function of a position (physical file:line:col,
// file relative to the module root).
//
// Q holds the module's package-level variables and the allocation objects
// of the module's code that may be shared: escaping ssa.Alloc (new, &T{},
// escaping or closure-captured locals, variadic argument arrays), make of
// slices, maps and channels, append growth arrays and []byte/[]rune
// conversions. Non-escaping locals are objects but not variables.
//
// A variable's name, which the runtime must reproduce:
//   - global: "pkgpath.Name";
//   - allocation: "file:line:col" of the start of the allocating expression,
//     file relative to the module root: `new` of new(T), `make` of make(..),
//     `&` of &T{}, the type of T{...} / []T{...}, the identifier declaring an
//     escaping local or parameter, the append call, the conversion, the
//     first variadic argument for a variadic array. Allocations of all
//     instances of a generic function share the name.
//
// A site is identified by "file:line:col" of the start of the source
// expression read or written (ast.Node.Pos()): for p.f the p, for s[i] the
// s, for *p the '*', for x the x, for m[k] the m, for a range statement
// its range expression, for ch <- v the ch, for <-ch the '<-', for calls
// (delete, clear, close, copy, append, sync and sync/atomic methods and
// functions, which access their receiver or first argument) the start of
// the call. A site has at most one read and one write entry; `x++` is
// both. Two expressions with the same start share a site (loading a
// captured p and then p.f): their variables are merged, which is safe.
//
// Positions come from SSA (selector Sel, index Lbrack, call Lparen, ...)
// and are mapped to expression starts through an index of the module's
// syntax (anchors.go). Accesses without a position (implicit loads in
// wrappers) are counted in Stats.Unpositioned and not reported.
//
// # Precision
//
// Result.Precision compares, over the same sites and variables, the
// points-to answer with a type baseline that lets a site touch every
// variable whose type contains the type its address is rooted in.
package alias
