package alias

// collapseCycles finds strongly connected components of the copy-edge graph
// and merges each into one node: all nodes of a cycle end with equal
// points-to sets, so sharing one set saves both time and memory. Tarjan's
// algorithm, iterative so that long chains cannot exhaust the stack.
func (s *solver) collapseCycles() {
	s.sccRuns++
	n := len(s.nodes)
	index := make([]int32, n) // 0: unvisited; else dfs number + 1
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []nodeID
	type frame struct {
		v    nodeID
		succ []nodeID
		next int
	}
	var counter int32
	for root := 1; root < n; root++ {
		r := nodeID(root)
		if s.find(r) != r || index[r] != 0 || len(s.nodes[r].succs) == 0 {
			continue
		}
		counter++
		index[r], low[r] = counter, counter
		stack = append(stack, r)
		onStack[r] = true
		frames := []frame{{v: r, succ: s.nodes[r].succs}}
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if f.next < len(f.succ) {
				w := s.find(f.succ[f.next])
				f.next++
				if index[w] == 0 {
					counter++
					index[w], low[w] = counter, counter
					stack = append(stack, w)
					onStack[w] = true
					frames = append(frames, frame{v: w, succ: s.nodes[w].succs})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				p := frames[len(frames)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			// v is the root of a component: pop it.
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				if w == v {
					break
				}
				s.merge(v, w)
			}
		}
	}
}

// merge folds node w into node r. The merged node's prev is the
// intersection of both: an element counts as propagated only if it went
// through the constraints and edges of both nodes.
func (s *solver) merge(r, w nodeID) {
	s.merged++
	nr, nw := s.nodes[r], s.nodes[w]
	s.rep[w] = r
	nr.pts.UnionWith(&nw.pts)
	nr.prev.IntersectionWith(&nw.prev)
	nr.succs = append(nr.succs, nw.succs...)
	nr.cons = append(nr.cons, nw.cons...)
	s.nodes[w] = &node{}
	s.enqueue(r)
}
