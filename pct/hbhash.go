package pct

// hbHash hashes the happens-before graph of an execution incrementally
// (the CHESS idea the POR paper builds on): each event's hash mixes its
// kind and site with the hashes of the events it depends on: the previous
// event of its goroutine (program order) and the last conflicting event on
// its object (the previous operation on a sync object; for memory, the last
// write, and for a write also the reads since). Addresses are used only to
// find dependencies, never hashed, so the hash is the same in every
// execution with the same graph, whatever the allocator did. Two
// interleavings that order only independent events differently get the same
// hash.
//
// Where the events do not name the object (a select's channel, an atomic's
// address), the event depends on a shared accumulator of all such
// operations: more dependencies only split classes (less pruning), never
// merge different ones.
type hbHash struct {
	prev     map[int]uint64     // goroutine -> hash of its last event
	syncLast map[uintptr]uint64 // sync object -> hash of its last operation
	mem      map[uintptr]memDeps
	anyChan  uint64 // every channel operation, for those whose channel is unknown
	all      uint64 // every event, for time passing
}

type memDeps struct{ write, reads uint64 }

func newHBHash() *hbHash {
	return &hbHash{prev: map[int]uint64{}, syncLast: map[uintptr]uint64{}, mem: map[uintptr]memDeps{}}
}

func mix(a, b uint64) uint64 {
	h := (a ^ 0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= b + 0x94d049bb133111eb + h<<6 + h>>2
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

func (h *hbHash) add(ev *Event) {
	if h == nil {
		return
	}
	self := mix(mix(uint64(ev.Kind), uint64(uint32(ev.Site))), uint64(ev.Op))
	self = mix(self, uint64(uint32(ev.G)))
	self = mix(self, h.prev[ev.G])
	if ev.Kind == EvChan && ev.Other != 0 {
		// Which case a select took: two choices of one select reach the
		// next decision with the same events otherwise (the cases' channel
		// operations are not events of their own).
		self = mix(self, uint64(ev.Other))
	}
	switch ev.Kind {
	case EvRead:
		d := h.mem[ev.Obj]
		self = mix(self, d.write)
		d.reads += self
		h.mem[ev.Obj] = d
	case EvWrite:
		d := h.mem[ev.Obj]
		self = mix(mix(self, d.write), d.reads)
		h.mem[ev.Obj] = memDeps{write: self}
	case EvSpawn:
		h.prev[ev.Other] = mix(self, uint64(uint32(ev.Other)))
	case EvTime:
		self = mix(self, h.all)
	case EvExit:
	default: // acquire, release, chan, atomic, block, wake
		self = h.syncDep(ev, self)
	}
	h.prev[ev.G] = self
	h.all += self
}

// syncDep orders an operation after the previous one on its object.
func (h *hbHash) syncDep(ev *Event, self uint64) uint64 {
	// Atomics are one chain whatever their address (their events carry
	// one for the race detector, which orders only those on one address,
	// and those of unknown address with all): one chain tells apart every
	// pair of executions the detector's orders do, and more.
	if ev.Obj == 0 || ev.Kind == EvAtomic {
		if ev.Kind == EvBlock || ev.Kind == EvWake {
			if ev.Op != KindSelect && ev.Op != KindSend && ev.Op != KindRecv {
				return self // a model wait: the acquire that follows names the object
			}
		}
		self = mix(self, h.anyChan)
		h.anyChan = self
		return self
	}
	self = mix(self, h.syncLast[ev.Obj])
	h.syncLast[ev.Obj] = self
	if ev.Kind == EvChan || ev.Kind == EvBlock || ev.Kind == EvWake {
		h.anyChan = mix(h.anyChan, self)
	}
	return self
}

// sum is the hash of the graph so far: its per-goroutine frontiers.
func (h *hbHash) sum() uint64 {
	var s uint64
	for g, p := range h.prev {
		s += mix(uint64(uint32(g)), p)
	}
	return s
}

// coverage hashes the happens-before graph of every execution of a
// campaign whose Config asks for it (gopct explore always, gopct hunt with
// -coverage): the number of distinct hashes against executions is the
// coverage curve of Musuvathi & Qadeer's PLDI'07 Figure 2. One process runs
// one campaign, so the observer is the process's.
type coverage struct {
	hb      *hbHash
	classes []uint64 // hash of each finished execution, in order
}

var coverageObs *coverage

func init() {
	RegisterObserver(func(cfg *Config) Observer {
		if !cfg.Coverage {
			return nil
		}
		if coverageObs == nil {
			coverageObs = &coverage{}
		}
		coverageObs.hb = newHBHash()
		return coverageObs
	})
}

func (c *coverage) Observe(ev *Event) { c.hb.add(ev) }

// Finish records the execution's class; an execution the strategy pruned
// has none (it is not an execution of the search).
func (c *coverage) Finish(o ExecOutcome) *Failure {
	if o.Kind != FailAbandoned {
		c.classes = append(c.classes, c.hb.sum())
	}
	return nil
}

// coverageClasses returns the hashes recorded so far (nil: coverage off).
func coverageClasses() []uint64 {
	if coverageObs == nil {
		return nil
	}
	return coverageObs.classes
}
