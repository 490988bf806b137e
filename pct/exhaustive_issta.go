package pct

import (
	"fmt"
	"math"
)

// isstaSearch is the exhaustive search in the shape of Algorithm 1 of
// Bindal, Bansal & Lal (ISSTA'13), with preemptions counted as that paper
// counts them: a strict priority scheduler always runs the
// highest-priority enabled goroutine, and a preemption is a change of the
// running goroutine's priority: it drops to any position below the
// highest other runnable goroutine (§4 gives each preempted fragment a
// priority of its own; Algorithm 1's effTid+MaxThreads is the bottom one).
// A switch the priorities already order is free: when a goroutine wakes or
// starts one of higher priority, or blocks, or exits. CHESS counts the
// first of these as a preemption; on the other hand a schedule whose free
// choices contradict every priority order needs lowerings CHESS does not
// count.
//
// The priority orders (Algorithm 1's threadPrios): with t = 0 every order
// is explored (each goroutine, when first seen, is placed at every
// position among the others: a free choice, same bound; by default last,
// so that goroutines run in the order they started); with t > 0 only the
// orders of a family that puts every t goroutines in every relative order,
// as §4 builds it from random permutations (Lemma 4.1): the id order, its
// reverse, and seeded random orders, (t+1)(ln(8t)+ln 100) in all (for
// t = 2 the first two suffice at c = 0, as §4 notes).
//
// A work item's prefix holds one action per decision (see actTime).
// Pruning keys add the priority order to exhaustive's (graph hash, next
// goroutine), since what follows depends on it.
type isstaSearch struct {
	exhaustive
	family    int   // permutation family of the running item; -1: all orders
	prio      []int // goroutine ids, highest priority first
	preempted bool  // the last answer changed a priority (or let time pass over a runnable goroutine)
}

// An action is time + 2*(lower + lowerRadix*placement): time 1 lets time
// pass; lower k > 0 drops the running goroutine to the k-th position below
// the highest other runnable goroutine; placement places the goroutines
// seen for the first time (mixed radix).
const (
	actTime    = 1
	lowerRadix = 256
	actLower   = 2              // lower = 1, as an action
	actShift   = 2 * lowerRadix // placement 1, as an action
)

func lowerOf(act int) int { return act / 2 % lowerRadix }

func newISSTASearch(s Spec) *isstaSearch {
	return &isstaSearch{exhaustive: *newExhaustive(s)}
}

// families is the number of priority orders explored for thread bound t.
func families(t int) int {
	if t <= 0 {
		return 1
	}
	if t == 2 {
		return 2
	}
	n := float64(t+1) * (math.Log(8*float64(t)) + math.Log(100))
	return int(n) + 1
}

// initialItems are one empty prefix per priority-order family, family 0
// on top.
func (x *isstaSearch) initialItems() []workItem {
	var out []workItem
	for f := families(x.t) - 1; f >= 0; f-- {
		out = append(out, workItem{fam: f})
	}
	return out
}

func (x *isstaSearch) Begin(exec int, rng *Rand) bool {
	if !x.inited {
		x.inited = true
		x.queue[0] = append(x.queue[0], x.initialItems()...)
	}
	if !x.exhaustive.Begin(exec, rng) {
		return false
	}
	x.setFamily()
	return true
}

// start begins the execution of an item (a shared queue's worker).
func (x *isstaSearch) start(it workItem) {
	x.exhaustive.start(it)
	x.setFamily()
}

func (x *isstaSearch) setFamily() {
	x.family = x.cur.fam
	if x.t <= 0 {
		x.family = -1
	}
	x.prio = x.prio[:0]
}

func (x *isstaSearch) Next(d *Decision) int {
	i := x.n
	x.n++
	if x.lost {
		return Abandon
	}
	fresh := x.fresh(d)
	if i < len(x.cur.prefix) {
		ans := x.apply(d, fresh, x.cur.prefix[i])
		if ans == Abandon || (i == len(x.cur.prefix)-1 && x.prunedPrio(d, ans)) {
			return Abandon
		}
		return ans
	}
	if x.checkNext || x.recordNext {
		saved := append([]int(nil), x.prio...)
		key := x.prioKey(d, x.apply(d, fresh, 0))
		x.prio = append(x.prio[:0], saved...)
		if x.afterPick(key) {
			return Abandon
		}
	}
	x.branch(d, fresh)
	x.path = append(x.path, 0)
	return x.apply(d, fresh, 0)
}

// fresh lists the goroutines of d seen for the first time.
func (x *isstaSearch) fresh(d *Decision) []int {
	var out []int
	for _, g := range d.Choices {
		if indexOf(x.prio, g.id) < 0 {
			out = append(out, g.id)
		}
	}
	return out
}

// Preempted says whether the last answer was a preemption as this search
// counts them, for the trace (the runtime's preemptionCounter).
func (x *isstaSearch) Preempted() bool { return x.preempted }

// apply carries out an action and returns the answer it gives.
func (x *isstaSearch) apply(d *Decision, fresh []int, act int) int {
	x.preempted = lowerOf(act) > 0 || (act&actTime != 0 && d.CurRuns)
	place := act / actShift
	for _, id := range fresh {
		x.place(id, place)
		place /= len(x.prio)
	}
	if d.CurRuns && d.Yield {
		x.lower(d.Cur.id) // a yield gives way: free
	}
	if k := lowerOf(act); k > 0 {
		if !d.CurRuns || !x.lowerTo(d, k) {
			return Abandon
		}
	}
	if act&actTime != 0 {
		if !d.CanPassTime {
			return Abandon
		}
		return PassTime
	}
	if len(d.Choices) == 0 {
		return PassTime
	}
	return x.highest(d)
}

// place inserts a goroutine seen for the first time: in a family, by its
// key; otherwise pos (mod the positions) counts up from the bottom, 0 being
// last.
func (x *isstaSearch) place(id, pos int) {
	at := len(x.prio)
	switch {
	case x.family >= 0:
		at = 0
		for at < len(x.prio) && familyKey(x.family, x.prio[at]) > familyKey(x.family, id) {
			at++
		}
	default:
		at = len(x.prio) - pos%(len(x.prio)+1)
	}
	x.prio = append(x.prio, 0)
	copy(x.prio[at+1:], x.prio[at:])
	x.prio[at] = id
}

// familyKey orders goroutines in permutation family f: 0 is id order, 1
// its reverse, the others seeded random orders.
func familyKey(f, id int) uint64 {
	switch f {
	case 0:
		return ^uint64(id)
	case 1:
		return uint64(id)
	}
	return mix(uint64(f), uint64(id))
}

// lowerings is the number of positions the running goroutine can drop to:
// anywhere below the highest other runnable goroutine (§4 gives a
// preempted goroutine's fragment an arbitrary new priority; Algorithm 1's
// effTid+MaxThreads, the bottom, is the last of them).
func (x *isstaSearch) lowerings(d *Decision) int {
	top := len(x.prio)
	for _, g := range d.Choices {
		if at := indexOf(x.prio, g.id); g != d.Cur && at < top {
			top = at
		}
	}
	if top == len(x.prio) {
		return 0
	}
	if indexOf(x.prio, d.Cur.id) < top {
		top-- // removing the current goroutine moves the others up
	}
	return min(len(x.prio)-1-top, lowerRadix-1)
}

// lowerTo drops the running goroutine to the k-th position below the
// highest other runnable one; the preemption is counted in the item's c.
func (x *isstaSearch) lowerTo(d *Decision, k int) bool {
	n := x.lowerings(d)
	if k > n {
		return false
	}
	id := d.Cur.id
	i := indexOf(x.prio, id)
	x.prio = append(x.prio[:i], x.prio[i+1:]...)
	at := len(x.prio) - n + k
	x.prio = append(x.prio, 0)
	copy(x.prio[at+1:], x.prio[at:])
	x.prio[at] = id
	return true
}

func (x *isstaSearch) lower(id int) {
	if i := indexOf(x.prio, id); i >= 0 {
		copy(x.prio[i:], x.prio[i+1:])
		x.prio[len(x.prio)-1] = id
	}
}

// highest is the index in d.Choices of the highest-priority goroutine.
func (x *isstaSearch) highest(d *Decision) int {
	best, bestAt := 0, len(x.prio)
	for i, g := range d.Choices {
		if at := indexOf(x.prio, g.id); at < bestAt {
			best, bestAt = i, at
		}
	}
	return best
}

// branch queues the other actions at this decision: the other placements
// of fresh goroutines (free), lowering the running goroutine where it is
// the one the priorities pick (a preemption: next bound), and letting time
// pass while goroutines can run (a preemption if the current one could).
func (x *isstaSearch) branch(d *Decision, fresh []int) {
	ways := 1
	if x.family < 0 {
		n := len(x.prio)
		for range fresh {
			n++
			ways *= n
		}
	}
	saved := append([]int(nil), x.prio...)
	for p := 0; p < ways; p++ {
		if p > 0 {
			x.queueAction(p*actShift, x.spent)
		}
		x.prio = append(x.prio[:0], saved...)
		for q, id := range fresh {
			x.place(id, placeDigit(p, len(saved), q))
		}
		if d.CurRuns && d.Yield {
			x.lower(d.Cur.id)
		}
		top := -1
		if len(d.Choices) > 0 {
			top = d.Choices[x.highest(d)].id
		}
		preemptable := x.sites == nil || x.sites[d.Access.Site]
		// Lowering a goroutine seen for the first time here would repeat a
		// placement.
		if d.CurRuns && !d.Yield && top == d.Cur.id && preemptable && len(d.Choices) > 1 && indexOf(fresh, d.Cur.id) < 0 {
			for k := 1; k <= x.lowerings(d); k++ {
				x.queueAction(p*actShift+k*actLower, x.spent+1)
			}
		}
		if d.CanPassTime && len(d.Choices) > 0 {
			c := x.spent
			if d.CurRuns {
				c++
			}
			x.queueAction(p*actShift+actTime, c)
		}
	}
	x.prio = append(x.prio[:0], saved...)
}

// placeDigit is the q-th placement digit of the mixed-radix number p
// (radix n+1, n+2, ...), as apply reads it.
func placeDigit(p, n, q int) int {
	for i := 0; i < q; i++ {
		p /= n + 1 + i
	}
	return p % (n + 1 + q)
}

func (x *isstaSearch) queueAction(act, c int) {
	if c > x.maxC {
		return
	}
	prefix := append(append(make([]int, 0, len(x.path)+1), x.path...), act)
	x.push(workItem{prefix: prefix, c: c, fam: x.cur.fam})
}

// prunedPrio is exhaustive's pruning with the priority order in the key.
func (x *isstaSearch) prunedPrio(d *Decision, ans int) bool { return x.pruned(x.prioKey(d, ans)) }

// prioKey identifies what follows a decision: the goroutine (or time) that
// runs next, and the priority order.
func (x *isstaSearch) prioKey(d *Decision, ans int) uint64 {
	next := timeID
	if ans != PassTime {
		next = d.Choices[ans].id
	}
	key := uint64(uint32(next))
	for _, id := range x.prio {
		key = mix(key, uint64(uint32(id)))
	}
	return key
}

func (x *isstaSearch) Spec() Spec {
	s := x.exhaustive.Spec()
	s.Name, s.T = "exhaustive-issta", x.t
	return s
}

func indexOf(ids []int, id int) int {
	for i, v := range ids {
		if v == id {
			return i
		}
	}
	return -1
}

func init() {
	strategies["exhaustive-issta"] = func(s Spec) (Strategy, error) {
		if s.C < 0 || s.T < 0 || s.T == 1 {
			return nil, fmt.Errorf("exhaustive-issta needs c >= 0 and t = 0 or t >= 2, got c=%d t=%d", s.C, s.T)
		}
		return newISSTASearch(s), nil
	}
}
