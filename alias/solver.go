package alias

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/tools/container/intsets"
)

// nodeID names one cell of the constraint graph. Node 0 is reserved: it
// stands for "no cell" (a value without pointers) and is never propagated.
type nodeID = uint32

const noNode nodeID = 0

// A node is a points-to variable: a pointer-like cell of an SSA value or of
// an abstract object. pts holds the node ids of the cells it may point to;
// prev is the part of pts already pushed along succs and through cons
// (difference propagation: only pts\prev is processed on each visit).
type node struct {
	pts, prev intsets.Sparse
	succs     []nodeID     // copy edges: succ ⊇ this (deduplicated by solver.edges)
	cons      []constraint // complex constraints whose pointer operand is this node
}

// A constraint is triggered by new pointees of its operand node.
type constraint interface {
	solve(a *analysis, delta []int)
}

// solver holds the constraint graph and the worklist.
type solver struct {
	nodes []*node
	rep   []nodeID // union-find parent, for nodes merged by cycle collapsing

	// edges deduplicates copy edges (src<<32 | dst, on representatives at
	// insertion). A map, not a per-node sorted set: hub nodes such as
	// havoc have hundreds of thousands of successors.
	edges map[uint64]struct{}

	queue   []nodeID
	inQueue []bool

	processed, sinceSCC int
	sccRuns, merged     int

	deltaBuf []int
}

func newSolver() *solver {
	s := &solver{edges: map[uint64]struct{}{}}
	s.newNodes(1) // node 0: noNode
	return s
}

// newNodes appends n fresh nodes and returns the first.
func (s *solver) newNodes(n int) nodeID {
	first := nodeID(len(s.nodes))
	for range n {
		id := nodeID(len(s.nodes))
		s.nodes = append(s.nodes, &node{})
		s.rep = append(s.rep, id)
		s.inQueue = append(s.inQueue, false)
	}
	return first
}

func (s *solver) find(n nodeID) nodeID {
	for s.rep[n] != n {
		s.rep[n] = s.rep[s.rep[n]]
		n = s.rep[n]
	}
	return n
}

func (s *solver) enqueue(n nodeID) {
	if !s.inQueue[n] {
		s.inQueue[n] = true
		s.queue = append(s.queue, n)
	}
}

// addPts records that n may point to cell t.
func (s *solver) addPts(n nodeID, t int) {
	if n == noNode {
		return
	}
	r := s.find(n)
	if s.nodes[r].pts.Insert(t) {
		s.enqueue(r)
	}
}

// addCopy adds the edge dst ⊇ src. What src has already propagated is
// pushed now; its pending delta follows when src is processed.
func (s *solver) addCopy(src, dst nodeID) {
	if src == noNode || dst == noNode {
		return
	}
	sr, dr := s.find(src), s.find(dst)
	if sr == dr {
		return
	}
	key := uint64(sr)<<32 | uint64(dr)
	if _, dup := s.edges[key]; dup {
		return
	}
	s.edges[key] = struct{}{}
	s.nodes[sr].succs = append(s.nodes[sr].succs, dr)
	if s.nodes[dr].pts.UnionWith(&s.nodes[sr].prev) {
		s.enqueue(dr)
	}
}

// addCons attaches c to n and applies it to what n already propagated.
func (a *analysis) addCons(n nodeID, c constraint) {
	if n == noNode {
		return
	}
	s := a.s
	r := s.find(n)
	s.nodes[r].cons = append(s.nodes[r].cons, c)
	if !s.nodes[r].prev.IsEmpty() {
		c.solve(a, s.nodes[r].prev.AppendTo(nil))
	}
}

// pointsTo returns the cells n may point to.
func (s *solver) pointsTo(n nodeID) *intsets.Sparse {
	if n == noNode {
		return &intsets.Sparse{}
	}
	return &s.nodes[s.find(n)].pts
}

// run drains the worklist. gen is called whenever new functions became
// reachable, so that their constraints join the graph (on-the-fly call
// graph).
func (a *analysis) run() {
	s := a.s
	for {
		a.genPending()
		if len(s.queue) == 0 {
			return
		}
		n := s.queue[0]
		s.queue = s.queue[1:]
		s.inQueue[n] = false
		if s.find(n) != n {
			continue
		}
		a.process(n)
		if debugMaxVisits > 0 && s.processed >= debugMaxVisits {
			s.queue = s.queue[:0]
			a.pending = a.pending[:0]
			return
		}
		if !a.deadline.IsZero() && s.processed%1024 == 0 && time.Now().After(a.deadline) {
			a.late = true
			return
		}
		if debugSolver && s.processed%200000 == 0 {
			a.debugStats()
		}
		s.sinceSCC++
		if s.sinceSCC > max(20000, len(s.nodes)/4) {
			s.collapseCycles()
			s.sinceSCC = 0
		}
	}
}

func (a *analysis) process(n nodeID) {
	s := a.s
	s.processed++
	nd := s.nodes[n]
	var delta intsets.Sparse
	delta.Difference(&nd.pts, &nd.prev)
	if delta.IsEmpty() {
		return
	}
	nd.prev.UnionWith(&delta)
	d := delta.AppendTo(s.deltaBuf[:0])
	s.deltaBuf = d
	// Constraints may add constraints to n; the new ones already saw prev.
	for i, k := 0, len(nd.cons); i < k; i++ {
		nd.cons[i].solve(a, d)
	}
	for k := 0; k < len(nd.succs); k++ {
		r := s.find(nd.succs[k])
		if r == n {
			continue
		}
		if s.nodes[r].pts.UnionWith(&delta) {
			s.enqueue(r)
		}
	}
}

// debugSolver prints solver progress to stderr (GOPCT_ALIAS_DEBUG=1).
var debugSolver = os.Getenv("GOPCT_ALIAS_DEBUG") != ""

func (a *analysis) debugStats() {
	s := a.s
	total, big := 0, 0
	for _, nd := range s.nodes {
		l := nd.pts.Len()
		total += l
		if l > 1000 {
			big++
		}
	}
	fmt.Fprintf(os.Stderr, "alias: visits=%d nodes=%d objs=%d queue=%d reached=%d sccRuns=%d merged=%d havoc=%d pts-total=%d sets>1000=%d edges=%d\n",
		s.processed, len(s.nodes), len(a.objs), len(s.queue), len(a.reached), s.sccRuns, s.merged,
		s.pointsTo(a.havoc).Len(), total, big, len(s.edges))
}

// setSizes returns the number of non-empty points-to sets (one per
// representative node), their mean and their maximum size.
func (s *solver) setSizes() (sets int, mean float64, maxSize int) {
	total := 0
	for i, nd := range s.nodes {
		if s.rep[i] != nodeID(i) {
			continue
		}
		if l := nd.pts.Len(); l > 0 {
			sets++
			total += l
			maxSize = max(maxSize, l)
		}
	}
	if sets > 0 {
		mean = float64(total) / float64(sets)
	}
	return sets, mean, maxSize
}
