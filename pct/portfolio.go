package pct

// portfolio alternates two strategies execution by execution: PCT (d, and
// t when thread bounding is on) at even indices, the random walk at odd
// ones. Neither dominates. On GoKer's 63 blocking kernels (seed 1, 1,000
// executions or 20 s each, docs/STRATEGIES.md) PCT missed Kubernetes11298,
// whose executions are thousands of steps long while the bug needs a
// preemption in their last few dozen (PCT's 1/(n k^(d-1))), and the walk
// found it at execution #22; the walk first failed Serving2137 at #51,
// PCT at #13, and the corpus's wg.Add and dispatch kernels take the walk
// 13-21 executions where PCT takes 1-2. Alternating finds what either
// finds, and a smoke run over code nobody has looked at needs that; over
// the corpus it even needed fewer executions than either, while a bug
// that only one member finds costs it up to about twice that member's.
//
// Each execution's member depends only on its index, so the schedule of
// execution i is the same for any -workers or -shard, and a replay needs
// nothing more: a walk's schedule says it was a walk (Schedule.Walk). Both
// members learn from every execution (PCT's k and n are the most steps
// and goroutines any execution showed).
type portfolio struct {
	pct  *pctStrategy
	walk *randomWalk
	cur  Strategy
}

func newPortfolio(d, t int) *portfolio {
	p := &portfolio{pct: newPCT(d), walk: &randomWalk{}}
	if t > 0 {
		p.pct = newPCTTB(d, t)
	}
	return p
}

// memberFor is the strategy that runs execution i.
func (p *portfolio) memberFor(i int) Strategy {
	if i%2 == 1 {
		return p.walk
	}
	return p.pct
}

func (p *portfolio) Begin(exec int, rng *Rand) bool {
	p.cur = p.memberFor(exec)
	return p.cur.Begin(exec, rng)
}

func (p *portfolio) Next(d *Decision) int        { return p.cur.Next(d) }
func (p *portfolio) Pick(d *Decision, n int) int { return p.cur.Pick(d, n) }

func (p *portfolio) End(o ExecOutcome) {
	p.pct.End(o)
	p.walk.End(o)
}

func (p *portfolio) Spec() Spec { return Spec{Name: "portfolio", D: p.pct.d, T: p.pct.t} }

// active is the strategy that decides the execution s has begun: a
// portfolio's member, or s itself. An execution sees only it, so the
// optional interfaces of a member (the PCT horizon, a walk's schedule)
// work as when it runs alone.
func active(s Strategy) Strategy {
	if p, ok := s.(*portfolio); ok && p.cur != nil {
		return p.cur
	}
	return s
}
