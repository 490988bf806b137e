package alias

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/gopct/gopct/pct"
)

// VarID indexes Result.Vars.
type VarID int

// VarKind is "global" or "alloc".
type VarKind string

const (
	KindGlobal VarKind = "global"
	KindAlloc  VarKind = "alloc"
)

// A Var is one variable of Q: a package-level variable of the module or an
// allocation site in the module's code.
type Var struct {
	ID   VarID
	Kind VarKind
	// Name is the variable's identity, as the runtime reports it:
	// "pkgpath.Name" for a global, the allocation's "file:line:col" for an
	// alloc (see doc.go for which expression start that is).
	Name  string
	Pos   string // declaration or allocation position, "file:line:col"
	Type  string // the global's type, or the allocated value's type
	Sites []SiteRef

	typ  types.Type // object content type (for the type baseline)
	objs []*object
}

// SiteRef is one may-access of a variable.
type SiteRef struct {
	Pos    string
	Access Access
}

// A Site is a source position that reads or writes memory, with the
// variables of Q it may touch.
type Site struct {
	Pos    string
	Access Access
	Ops    []string          // SSA operations at this site: load, store, mapwrite, ...
	Instrs []ssa.Instruction // the SSA instructions mapped to this site
	Vars   []VarID           // may-touch set, sorted
	Base   []VarID           // the type-based baseline's may-touch set

	baseType types.Type
}

// Result is the outcome of Analyze.
type Result struct {
	Prog  *Program
	Vars  []*Var
	Sites []*Site // sites touching at least one variable, sorted by position

	allSites []*Site // also the sites touching only local memory
	// byKey: the variables of the accesses at each pct.VarKey (a
	// position, apart for map operations), local-only ones included.
	byKey map[string][]VarID

	a      *analysis
	byName map[string]VarID
	byPos  map[string][]*Site
	Stats  Stats
}

// Stats describes the run.
type Stats struct {
	ReachableFuncs  int
	ReachableInstrs int
	ModuleFuncs     int
	Nodes, Objects  int
	Processed       int // worklist visits
	SCCRuns, Merged int
	Unpositioned    int // module accesses with no source position (skipped)
	LocalOnly       int // module sites touching no variable of Q
	Edges           int // copy edges of the constraint graph
	Sets            int // non-empty points-to sets (of representative nodes)
	MeanSet         float64
	MaxSet          int
	Solve           time.Duration // the whole of Analyze
	Gen             time.Duration // of which constraint generation
	Post            time.Duration // of which Q, sites and the baseline
}

// Options select what to analyse.
type Options struct {
	// Run restricts the roots to the tests whose name matches, as go test
	// -run does (top-level name only). Nil: every function of the module.
	Run *regexp.Regexp
	// Deadline stops the solve when it passes (zero: none); Analyze then
	// returns ErrTooSlow, since a partial solution is unsound.
	Deadline time.Time
}

// ErrNoTests is returned when Options.Run matches no test.
var ErrNoTests = errors.New("no test matches -run")

// ErrTooSlow is returned when the solve did not finish by the deadline.
var ErrTooSlow = errors.New("points-to analysis stopped at its deadline")

// Analyze solves the points-to problem from the roots Options select and
// derives Q and the access sites.
func Analyze(p *Program, opts Options) (*Result, error) {
	roots, err := p.roots(opts.Run)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	a := newAnalysis(p.SSA)
	col := &collector{anchors: p.anchors}
	a.onFunc = col.onFunc
	a.inModule = p.anchors.inModule
	a.deadline = opts.Deadline
	for _, fn := range roots {
		a.reach(fn)
	}
	a.run()
	if a.late {
		return nil, ErrTooSlow
	}
	if debugSolver {
		a.debugReport(start)
	}
	post := time.Now()
	r := &Result{Prog: p, a: a, byName: map[string]VarID{}, byPos: map[string][]*Site{}}
	// Globals whose accesses generated no constraint (an int global) get
	// their object on first use; create them before buildVars numbers
	// the objects, so that -run (which skips the module's other globals)
	// still maps them to variables.
	for _, ra := range col.accesses {
		if g, ok := ra.ptr.(*ssa.Global); ok {
			a.val(g)
		}
	}
	r.buildVars(a, opts.Run == nil)
	r.buildSites(a, col)
	r.baseline()
	r.Stats = Stats{
		ReachableFuncs: len(a.reached), ReachableInstrs: col.instrs, ModuleFuncs: col.funcs,
		Nodes: len(a.s.nodes), Objects: len(a.objs), Processed: a.s.processed,
		SCCRuns: a.s.sccRuns, Merged: a.s.merged, Unpositioned: col.noPos,
		Edges: len(a.s.edges), Gen: a.genTime, Post: time.Since(post),
	}
	r.Stats.Sets, r.Stats.MeanSet, r.Stats.MaxSet = a.s.setSizes()
	r.Stats.LocalOnly = len(r.allSites) - len(r.Sites)
	r.Stats.Solve = time.Since(start)
	return r, nil
}

// roots are every package initializer plus the selected tests (or, without
// a filter, every function of the module).
func (p *Program) roots(run *regexp.Regexp) ([]*ssa.Function, error) {
	var roots []*ssa.Function
	for _, sp := range p.pkgs {
		if init := sp.Func("init"); init != nil {
			roots = append(roots, init)
		}
	}
	if run == nil {
		return append(roots, p.moduleFuncs()...), nil
	}
	n := 0
	for _, fn := range p.Tests() {
		if run.MatchString(fn.Name()) {
			roots = append(roots, fn)
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%w %q", ErrNoTests, run.String())
	}
	return roots, nil
}

// varObject reports whether o is a variable of Q and under which name.
func (r *Result) varObject(a *analysis, o *object) (VarKind, string, bool) {
	p := r.Prog
	switch o.kind {
	case objGlobal:
		g := o.site.(*ssa.Global)
		if strings.Contains(g.Name(), "$") || !p.anchors.inModule(g.Pos()) {
			return "", "", false
		}
		return KindGlobal, g.Pkg.Pkg.Path() + "." + g.Name(), true
	case objAlloc, objArray, objMap, objChan:
		if !p.anchors.inModule(o.pos) {
			return "", "", false
		}
		return KindAlloc, p.Position(p.anchors.start(o.pos)), true
	}
	return "", "", false
}

func (r *Result) buildVars(a *analysis, allGlobals bool) {
	if allGlobals {
		for _, sp := range r.Prog.modPkgs {
			for _, m := range sp.Members {
				if g, ok := m.(*ssa.Global); ok {
					a.globalObj(g)
				}
			}
		}
	}
	type entry struct {
		kind VarKind
		name string
		o    *object
	}
	var es []entry
	for _, o := range a.objs {
		if kind, name, ok := r.varObject(a, o); ok {
			es = append(es, entry{kind, name, o})
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return lessPos(es[i].o.pos, es[j].o.pos, r.Prog.Fset) })
	a.objVar = make([]VarID, len(a.objs))
	for i := range a.objVar {
		a.objVar[i] = -1
	}
	for _, e := range es {
		id, ok := r.byName[e.name]
		if !ok {
			id = VarID(len(r.Vars))
			r.byName[e.name] = id
			r.Vars = append(r.Vars, &Var{ID: id, Kind: e.kind, Name: e.name,
				Pos: r.Prog.Position(r.Prog.anchors.start(e.o.pos)), Type: typeString(objDeclType(e.o)), typ: objBaseType(e.o)})
		}
		r.Vars[id].objs = append(r.Vars[id].objs, e.o)
		a.objVar[a.cellObj[e.o.cell]] = id
	}
}

func lessPos(x, y token.Pos, fset *token.FileSet) bool {
	px, py := fset.Position(x), fset.Position(y)
	if px.Filename != py.Filename {
		return px.Filename < py.Filename
	}
	return px.Offset < py.Offset
}

// objDeclType is the type a user sees for the variable: the global's type,
// or the type of the allocating expression.
func objDeclType(o *object) types.Type {
	if o.kind == objGlobal {
		return o.typ
	}
	return o.site.Type()
}

// objBaseType is the type the baseline compares against: the content type,
// with backing arrays represented as slices of their element.
func objBaseType(o *object) types.Type {
	if o.kind == objArray {
		return types.NewSlice(o.typ)
	}
	if o.kind == objMap || o.kind == objChan {
		return o.site.Type().Underlying()
	}
	return o.typ
}

func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func (r *Result) buildSites(a *analysis, col *collector) {
	type key struct {
		pos token.Pos
		acc Access
	}
	sites := map[key]*Site{}
	var order []key
	r.byKey = map[string][]VarID{}
	for _, ra := range col.accesses {
		vars := r.varsOf(a, ra.ptr)
		vk := pct.VarKey(r.Prog.Position(ra.pos), accessKind(ra))
		r.byKey[vk] = mergeIDs(append([]VarID{}, r.byKey[vk]...), vars)
		k := key{ra.pos, ra.access}
		s := sites[k]
		if s == nil {
			s = &Site{Pos: r.Prog.Position(ra.pos), Access: ra.access, baseType: accessBaseType(ra.ptr)}
			sites[k] = s
			order = append(order, k)
		}
		s.Instrs = append(s.Instrs, ra.instr)
		if !slices.Contains(s.Ops, ra.op) {
			s.Ops = append(s.Ops, ra.op)
		}
		s.Vars = mergeIDs(s.Vars, vars)
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].pos != order[j].pos {
			return lessPos(order[i].pos, order[j].pos, r.Prog.Fset)
		}
		return order[i].acc < order[j].acc
	})
	for _, k := range order {
		s := sites[k]
		r.allSites = append(r.allSites, s)
		if len(s.Vars) == 0 {
			continue // touches only goroutine-local memory
		}
		r.Sites = append(r.Sites, s)
		r.byPos[s.Pos] = append(r.byPos[s.Pos], s)
		for _, v := range s.Vars {
			r.Vars[v].Sites = append(r.Vars[v].Sites, SiteRef{Pos: s.Pos, Access: s.Access})
		}
	}
}

// varsOf maps the pointees of ptr to variables of Q.
func (r *Result) varsOf(a *analysis, ptr ssa.Value) []VarID {
	// val creates the node of a global or function not yet seen (one whose
	// accesses generated no constraint, e.g. an int global); its points-to
	// set is known at creation.
	n := a.val(ptr)
	if n == noNode {
		return nil
	}
	var out []VarID
	for _, t := range a.s.pointsTo(n).AppendTo(nil) {
		if id := a.varOfCell(t); id >= 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// varOfCell is the variable of Q owning cell t, or -1; objects created
// after buildVars numbered them (a function first used as a value) are no
// variable.
func (a *analysis) varOfCell(t int) VarID {
	if idx := int(a.cellObj[t]); idx < len(a.objVar) {
		return a.objVar[idx]
	}
	return -1
}

func mergeIDs(x, y []VarID) []VarID {
	out := append(x, y...)
	slices.Sort(out)
	return slices.Compact(out)
}

// SiteVars maps every access site the analysis saw in the module's
// reachable code, by pct.VarKey (its position; map operations apart), to
// the variables of Q it may touch (reads and writes at one key merged); a
// site that touches only goroutine-local memory maps to an empty, non-nil
// list. A site that is not in the map was not seen (unreachable from the
// roots, or an expression the analysis does not count as an access).
func (r *Result) SiteVars() map[string][]VarID {
	out := make(map[string][]VarID, len(r.byKey))
	for k, vars := range r.byKey {
		out[k] = append([]VarID{}, vars...)
	}
	return out
}

// accessKind is the site kind whose VarKey names a raw access: a map
// operation's or a plain access's (every other operation shares the
// position's key).
func accessKind(ra rawAccess) pct.SiteKind {
	switch ra.op {
	case "mapread", "mapwrite", "maprange", "delete":
		return pct.KindMapWrite
	case "clear":
		if isMap(ra.ptr.Type()) {
			return pct.KindMapWrite
		}
	}
	return pct.KindRead
}

// Var returns the variable with the given runtime name, or nil.
func (r *Result) Var(name string) *Var {
	if id, ok := r.byName[name]; ok {
		return r.Vars[id]
	}
	return nil
}

// SitesAt returns the variables the site(s) at pos ("file:line:col") may
// touch, for any access; nil if pos is not a site.
func (r *Result) SitesAt(pos string) []VarID {
	var out []VarID
	for _, s := range r.byPos[pos] {
		out = mergeIDs(out, s.Vars)
	}
	return out
}

func sortMembers(ms []ssa.Member) {
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].Pos() != ms[j].Pos() {
			return ms[i].Pos() < ms[j].Pos()
		}
		return ms[i].Name() < ms[j].Name()
	})
}

// PointsTo returns the variables of Q that SSA value v (of a reachable
// function) may point to; for an interface value, those its dynamic values
// may point to.
func (r *Result) PointsTo(v ssa.Value) []VarID {
	a := r.a
	if _, ok := v.Type().Underlying().(*types.Interface); !ok {
		return r.varsOf(a, v)
	}
	var out []VarID
	for _, t := range a.s.pointsTo(a.val(v)).AppendTo(nil) {
		o := a.objectAt(t)
		if o.kind != objBox {
			continue
		}
		for i := range a.lay.size(o.typ) {
			for _, u := range a.s.pointsTo(o.start + nodeID(i)).AppendTo(nil) {
				if id := a.varOfCell(u); id >= 0 {
					out = append(out, id)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
