package pct

import "sort"

// exhaustive is iterative context bounding (Musuvathi & Qadeer, PLDI'07)
// with happens-before pruning (Musuvathi & Qadeer, "Partial-order reduction
// for context-bounded state exploration"), in the shape of Algorithm 1 of
// Bindal, Bansal & Lal (ISSTA'13).
//
// A work item is a schedule prefix: the choice made at each decision, and
// the preemptions it spent. An execution follows its item's prefix, then
// runs without preempting: the current goroutine continues while it can
// (at a yield, the next goroutine in id order runs instead); when it
// cannot, the lowest id runs. At every decision after the prefix, each
// other answer becomes a new work item: for the same bound when the
// decision is not a preemption (the current goroutine blocked, exited or
// yields), for the next bound when it is (the current goroutine could have
// continued; letting time pass while goroutines can run counts as one,
// like a delay). Bound c is finished before bound c+1 starts, so the first
// bug found has the fewest preemptions: the c of classify.
//
// Preemptions are counted as CHESS counts them: every switch away from a
// goroutine that could continue. With a set of preemption sites (variable
// bounding), preempting alternatives are generated only at decisions whose
// access is at one of those sites; non-preempting branching is unaffected.
//
// Pruning: an observer hashes the happens-before graph of the execution as
// it goes (hbHash). When an execution reaches the end of its prefix, the
// hash of the graph so far is looked up: if the same graph was reached
// before with no more preemptions spent, everything that can follow was (or
// will be) explored from there within the same bounds, so the execution is
// abandoned. Recording the preemptions with the hash is what keeps the
// pruning sound under a context bound (the POR paper's point: two paths to
// one state with different budgets are not interchangeable).
type exhaustive struct {
	maxC   int          // largest bound explored
	t      int          // thread bound (isstaSearch; 0: none)
	sites  map[int]bool // preemption sites; nil: every scheduling point
	prune  bool
	bound  int          // bound being explored
	queue  [][]workItem // queue[c]: items with c preemptions
	cur    workItem     // item of the running execution
	path   []int        // choices of the running execution
	n      int          // Next calls in the running execution
	spent  int          // preemptions of the running execution
	seen   map[uint64]int
	hb     *hbHash
	stats  []BoundStats
	inited bool
	// remote: a worker of a shared queue (queue.go). Items come from the
	// campaign, which owns the queue, the seen set and the counts; the new
	// items an execution makes go back to it (children), with its key.
	remote   bool
	children []workItem
	key      uint64 // remote: the pruning key at the end of the prefix
	keyed    bool   // remote: key is set
	onKey    func(uint64)
	recorded []uint64 // remote: keys recorded on the way (after a select's choice)
	// A select's choice (Pick) is a decision too: checkNext, the prefix
	// ended with one, so the pruning check comes at the next decision;
	// recordNext, this execution chose at a select, so the state at the
	// next decision is recorded as explored; lost, a prefix's choice is
	// out of range (the program took another path).
	checkNext, recordNext, lost bool
	pickAt                      int // the path index of a select's default choice to branch on (Picked); -1: none
}

// workItem is a schedule prefix to explore.
type workItem struct {
	prefix []int // choice at decision i (index into Choices, or PassTime)
	c      int   // preemptions spent by the prefix
	fam    int   // isstaSearch: the priority-order family
}

// initialItems are the items a search starts from: the empty prefix (for
// isstaSearch, one per priority-order family, the last popped first).
func (x *exhaustive) initialItems() []workItem { return []workItem{{}} }

// BoundStats counts, per context bound, the executions run to their end,
// the executions pruned, and the distinct happens-before classes seen.
type BoundStats struct {
	Bound    int `json:"bound"`
	Executed int `json:"executed"`
	Pruned   int `json:"pruned"`
	Classes  int `json:"classes"`
}

func newExhaustive(s Spec) *exhaustive {
	x := &exhaustive{maxC: s.C, t: s.T, prune: !s.NoPrune, seen: map[uint64]int{}}
	if len(s.Sites) > 0 {
		x.sites = map[int]bool{}
		for _, v := range s.Sites {
			x.sites[v] = true
		}
	}
	x.queue = make([][]workItem, s.C+2)
	x.stats = make([]BoundStats, s.C+1)
	for i := range x.stats {
		x.stats[i].Bound = i
	}
	return x
}

func (x *exhaustive) Begin(exec int, rng *Rand) bool {
	if !x.inited {
		x.inited = true
		x.queue[0] = append(x.queue[0], x.initialItems()...)
	}
	for x.bound <= x.maxC && len(x.queue[x.bound]) == 0 {
		x.bound++
	}
	if x.bound > x.maxC {
		return false
	}
	q := x.queue[x.bound]
	x.start(q[len(q)-1]) // depth first within a bound: the queue stays small
	x.queue[x.bound] = q[:len(q)-1]
	return true
}

// start begins the execution of an item.
func (x *exhaustive) start(it workItem) {
	x.cur = it
	x.children, x.keyed, x.recorded = x.children[:0], false, x.recorded[:0]
	x.checkNext, x.recordNext, x.lost, x.pickAt = false, false, false, -1
	x.path = append(x.path[:0], x.cur.prefix...)
	x.spent = x.cur.c
	x.n = 0
	x.hb = newHBHash()
}

func (x *exhaustive) Next(d *Decision) int {
	i := x.n // not d.Seq: the decision numbers of Pick and Next differ
	x.n++
	if x.lost {
		return Abandon
	}
	if i < len(x.cur.prefix) {
		want := x.cur.prefix[i]
		if want >= len(d.Choices) || (want == PassTime && !d.CanPassTime) {
			return Abandon // the program took another path: not this item's
		}
		if i == len(x.cur.prefix)-1 && x.pruned(uint64(uint32(choiceID(d, want)))) {
			return Abandon
		}
		return want
	}
	def := x.defaultChoice(d)
	if x.afterPick(uint64(uint32(choiceID(d, def)))) {
		return Abandon
	}
	x.branch(d, def)
	x.path = append(x.path, def)
	return def
}

// pruned says whether the happens-before graph at the end of the prefix,
// followed by the same goroutine (or time) running next, was already
// reached with no more preemptions; it records it otherwise.
func (x *exhaustive) pruned(next uint64) bool {
	if !x.prune {
		return false
	}
	h := mix(x.hb.sum(), next)
	if x.remote {
		// The campaign decides, in the order the search pops items; the
		// worker only gives up early on a key the campaign sent as seen.
		x.key, x.keyed = h, true
		if x.onKey != nil {
			x.onKey(h)
		}
		c, ok := x.seen[h]
		return ok && c <= x.cur.c
	}
	if c, ok := x.seen[h]; ok && c <= x.cur.c {
		x.stats[x.bound].Pruned++
		return true
	}
	x.seen[h] = x.cur.c
	x.stats[x.bound].Classes++
	return false
}

// choiceID names an answer by goroutine id (timeID for time), which unlike
// an index does not depend on which other goroutines are runnable.
func choiceID(d *Decision, i int) int {
	if i == PassTime {
		return timeID
	}
	return d.Choices[i].id
}

// defaultChoice is the non-preempting continuation.
func (x *exhaustive) defaultChoice(d *Decision) int {
	if len(d.Choices) == 0 {
		return PassTime
	}
	if d.CurRuns && d.Yield {
		for i, g := range d.Choices {
			if g.id > d.Cur.id {
				return i
			}
		}
		if d.Choices[0] != d.Cur {
			return 0
		}
	}
	if d.CurRuns {
		return d.IndexOf(d.Cur)
	}
	return 0
}

// branch queues every other answer at this decision.
func (x *exhaustive) branch(d *Decision, def int) {
	preempting := d.CurRuns && !d.Yield
	if preempting && x.sites != nil && !x.sites[d.Access.Site] {
		return
	}
	c := x.spent
	if preempting {
		c++
	}
	if c > x.maxC {
		return
	}
	for i := 0; i < d.Options(); i++ {
		alt := d.Option(i)
		if alt == def {
			continue
		}
		altC := c
		if d.CurRuns && d.Yield && alt == d.IndexOf(d.Cur) {
			altC = x.spent + 1 // continuing through a yield is the preemption
		}
		if altC > x.maxC {
			continue
		}
		prefix := append(append(make([]int, 0, len(x.path)+1), x.path...), alt)
		x.push(workItem{prefix: prefix, c: altC})
	}
}

// push queues a new item (remote: hands it to the campaign).
func (x *exhaustive) push(it workItem) {
	if x.remote {
		x.children = append(x.children, it)
		return
	}
	x.queue[it.c] = append(x.queue[it.c], it)
}

// Pick is a select's choice: where the select starts trying its cases
// (the first ready one from there is taken). Go picks uniformly among the
// ready cases, so every start that may take another case is explored
// (Picked), as a free choice (not a preemption, under either count);
// starts that take the same case reach the same state at the next
// decision, where pruning drops them.
func (x *exhaustive) Pick(d *Decision, n int) int {
	i := x.n
	x.n++
	if i < len(x.cur.prefix) {
		want := x.cur.prefix[i]
		if want < 0 || want >= n {
			x.lost = true // another path: abandoned at the next decision
			return 0
		}
		x.checkNext = i == len(x.cur.prefix)-1
		return want
	}
	x.pickAt = len(x.path)
	x.path = append(x.path, 0)
	x.recordNext = true
	return 0
}

// Picked learns which case the select took from start 0: taken, the first
// ready one. Starts up to taken take it too; only a start past it can
// find another ready case, so only those are queued (the others would be
// pruned, after replaying the whole prefix).
func (x *exhaustive) Picked(taken, n int) {
	if x.pickAt < 0 {
		return
	}
	for alt := taken + 1; alt < n; alt++ {
		prefix := append(append(make([]int, 0, x.pickAt+1), x.path[:x.pickAt]...), alt)
		x.push(workItem{prefix: prefix, c: x.spent, fam: x.cur.fam})
	}
	x.pickAt = -1
}

// afterPick runs at the first decision after a select's choice: the
// pruning check of an item whose prefix ended with the choice, or the
// record, on the execution that chose the default, of the state reached
// (its other starts are queued: those that take the same case are pruned
// there). next identifies what runs next.
func (x *exhaustive) afterPick(next uint64) bool {
	check, record := x.checkNext, x.recordNext
	x.checkNext, x.recordNext = false, false
	switch {
	case check:
		return x.pruned(next)
	case record && x.prune:
		h := mix(x.hb.sum(), next)
		if x.remote {
			x.recorded = append(x.recorded, h)
		} else if c, ok := x.seen[h]; !ok || c > x.cur.c {
			x.seen[h] = x.cur.c
		}
	}
	return false
}

func (x *exhaustive) End(o ExecOutcome) {
	if !x.remote && o.Kind != FailAbandoned {
		x.stats[x.bound].Executed++
	}
}

func (x *exhaustive) Spec() Spec {
	s := Spec{Name: "exhaustive", C: x.maxC, NoPrune: !x.prune}
	for site := range x.sites {
		s.Sites = append(s.Sites, site)
	}
	sort.Ints(s.Sites)
	return s
}

// Stats returns the per-bound counts so far.
func (x *exhaustive) Stats() []BoundStats { return x.stats }

// Observe feeds the happens-before hash.
func (x *exhaustive) Observe(ev *Event)             { x.hb.add(ev) }
func (x *exhaustive) Finish(o ExecOutcome) *Failure { return nil }
