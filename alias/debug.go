package alias

import (
	"fmt"
	"go/types"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"

	"golang.org/x/tools/go/ssa"
)

// Developer instrumentation, off unless GOPCT_ALIAS_DEBUG is set:
//
//	GOPCT_ALIAS_DEBUG=1            progress lines and a final report
//	GOPCT_ALIAS_MAXVISITS=N        stop the solve after N visits (report only)
//
// The report lists the set-size histogram, the largest sets with the SSA
// value or object cell they belong to, and the cells contained in the most
// sets: the usual way to find where imprecision comes from.
var debugMaxVisits, _ = strconv.Atoi(os.Getenv("GOPCT_ALIAS_MAXVISITS"))

// GOPCT_ALIAS_DUMP=REGEXP prints the points-to sets of the nodes whose
// description matches.
var debugDump = os.Getenv("GOPCT_ALIAS_DUMP")

// debugOwner records which value or object a node block belongs to.
type debugOwner struct {
	v   ssa.Value
	fn  *ssa.Function // result block
	obj *object
}

func (a *analysis) noteOwner(n nodeID, size int, o debugOwner) {
	if !debugSolver || n == noNode {
		return
	}
	for len(a.owners) < len(a.s.nodes) {
		a.owners = append(a.owners, debugOwner{})
	}
	for i := range size {
		a.owners[int(n)+i] = o
	}
}

func (a *analysis) describeNode(n nodeID) string {
	if int(n) >= len(a.owners) {
		return fmt.Sprintf("n%d", n)
	}
	o := a.owners[n]
	switch {
	case o.v != nil:
		fn := ""
		if i, ok := o.v.(ssa.Instruction); ok && i.Parent() != nil {
			fn = i.Parent().String()
		} else if p, ok := o.v.(*ssa.Parameter); ok {
			fn = p.Parent().String()
		} else if fv, ok := o.v.(*ssa.FreeVar); ok {
			fn = fv.Parent().String()
		}
		return fmt.Sprintf("n%d val %s = %s : %s in %s", n, o.v.Name(), trunc(o.v.String()), o.v.Type(), fn)
	case o.fn != nil:
		return fmt.Sprintf("n%d result of %s", n, o.fn)
	case o.obj != nil:
		return fmt.Sprintf("n%d cell +%d of %s", n, int(n-o.obj.start), a.describeObj(o.obj))
	}
	return fmt.Sprintf("n%d ?", n)
}

func (a *analysis) describeObj(o *object) string {
	kinds := []string{"global", "alloc", "local", "array", "map", "chan", "box", "func"}
	where := ""
	if o.pos.IsValid() {
		where = " @" + a.prog.Fset.Position(o.pos).String()
	}
	if o.fn != nil {
		return "func " + o.fn.String()
	}
	return fmt.Sprintf("%s %s%s", kinds[o.kind], o.typ, where)
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// debugReport prints the final diagnostics.
func (a *analysis) debugReport(start time.Time) {
	s := a.s
	hist := map[int]int{}
	type big struct {
		n nodeID
		l int
	}
	var bigs []big
	count := make([]int, len(a.cellObj))
	total := 0
	for i, nd := range s.nodes {
		if s.find(nodeID(i)) != nodeID(i) {
			continue
		}
		l := nd.pts.Len()
		total += l
		b := 0
		for x := l; x > 0; x /= 4 {
			b++
		}
		hist[b]++
		if l > 100 {
			bigs = append(bigs, big{nodeID(i), l})
		}
		for _, c := range nd.pts.AppendTo(nil) {
			count[c]++
		}
	}
	fmt.Fprintf(os.Stderr, "alias report after %v: visits=%d nodes=%d objs=%d cells=%d pts-total=%d edges=%d havoc=%d reached=%d\n",
		time.Since(start), s.processed, len(s.nodes), len(a.objs), len(a.cellObj), total, len(s.edges), s.pointsTo(a.havoc).Len(), len(a.reached))
	for b := 0; b < 12; b++ {
		if hist[b] > 0 {
			lo := 0
			if b > 0 {
				lo = 1 << (2 * (b - 1))
			}
			fmt.Fprintf(os.Stderr, "  size >= %d: %d sets\n", lo, hist[b])
		}
	}
	sort.Slice(bigs, func(i, j int) bool { return bigs[i].l > bigs[j].l })
	fmt.Fprintf(os.Stderr, "largest sets (%d of > 100):\n", len(bigs))
	for _, b := range bigs[:min(40, len(bigs))] {
		fmt.Fprintf(os.Stderr, "  %6d %s\n", b.l, a.describeNode(b.n))
	}
	if debugDump != "" {
		re := regexp.MustCompile(debugDump)
		for i := range s.nodes {
			d := a.describeNode(nodeID(i))
			if !re.MatchString(d) {
				continue
			}
			pts := s.pointsTo(nodeID(i)).AppendTo(nil)
			fmt.Fprintf(os.Stderr, "dump %s: %d pointees\n", d, len(pts))
			for k, c := range pts {
				if k == 60 {
					fmt.Fprintf(os.Stderr, "    ...\n")
					break
				}
				o := a.objectAt(c)
				fmt.Fprintf(os.Stderr, "    cell +%d of %s\n", c-o.cell, a.describeObj(o))
			}
		}
	}
	a.debugConsistency()
	type cc struct{ c, n int }
	var ccs []cc
	for c, n := range count {
		if n > 0 {
			ccs = append(ccs, cc{c, n})
		}
	}
	sort.Slice(ccs, func(i, j int) bool { return ccs[i].n > ccs[j].n })
	fmt.Fprintf(os.Stderr, "cells in most sets:\n")
	for _, x := range ccs[:min(40, len(ccs))] {
		o := a.objectAt(x.c)
		fmt.Fprintf(os.Stderr, "  %6d cell +%d of %s\n", x.n, x.c-o.cell, a.describeObj(o))
	}
}

// debugConsistency lists value nodes of type *T whose pointees are cells
// where no T starts (type confusion), smallest sets first: the seeds of
// imprecision are usually among them.
func (a *analysis) debugConsistency() {
	s := a.s
	type bad struct {
		n    nodeID
		l    int
		nbad int
		ex   string
	}
	var bads []bad
	for v, n := range a.values {
		if n == noNode {
			continue
		}
		pt, ok := v.Type().Underlying().(*types.Pointer)
		if !ok {
			continue
		}
		want := a.lay.leaves(pt.Elem())
		if len(want) == 0 {
			continue
		}
		pts := s.pointsTo(n).AppendTo(nil)
		b := bad{n: n, l: len(pts)}
		for _, c := range pts {
			o := a.objectAt(c)
			if o.kind == objFunc || o.kind == objMap || o.kind == objChan {
				b.nbad++
				continue
			}
			have := a.lay.leaves(o.typ)
			off := c - o.cell
			okk := off+len(want) <= len(have)
			for i := 0; okk && i < len(want); i++ {
				okk = types.Identical(want[i], have[off+i])
			}
			if !okk {
				b.nbad++
				if b.ex == "" {
					b.ex = fmt.Sprintf("cell +%d of %s", off, a.describeObj(o))
				}
			}
		}
		if b.nbad > 0 {
			bads = append(bads, b)
		}
	}
	sort.Slice(bads, func(i, j int) bool { return bads[i].l < bads[j].l })
	fmt.Fprintf(os.Stderr, "type-confused pointer values: %d\n", len(bads))
	for _, b := range bads[:min(60, len(bads))] {
		fmt.Fprintf(os.Stderr, "  %d/%d bad: %s\n      e.g. %s\n", b.nbad, b.l, a.describeNode(b.n), b.ex)
	}
}
