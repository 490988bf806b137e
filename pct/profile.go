package pct

import (
	"math/bits"
	"reflect"
	"sort"
	"unsafe"
)

// Profiling records, for each executed memory site, which variable it
// really touched: a package-level variable (registered by Global) or an
// object allocated at an instrumented allocation site (registered by Alloc
// and Local). This is the ground truth the alias analysis is checked
// against, and the k_q and shared-ness that variable bounding needs.

// profiling is set for the whole process by a profiling campaign.
var profiling bool

// object is a registered block of memory.
type object struct {
	base, size uintptr
	name       string // "importpath.Name" or the allocation site's position
}

// memMap finds the object containing an address. Objects are filed under
// every page they span (so that a registration and a lookup cost the pages
// the object spans, not the number of objects: a recursive function whose
// escaping locals are registered at every call made the sorted slice this
// replaced quadratic); a new registration kills the objects it overlaps
// (memory reused after a collection).
type memMap struct {
	pages map[uintptr][]*liveObject
	// lastPage+1 and lastObjs: the page find looked up last and its
	// objects (a run of accesses stays on a page; add clears it).
	lastPage uintptr
	lastObjs []*liveObject
}

type liveObject struct {
	object
	dead bool
}

const pageShift = 12

var (
	globals []object // registered at init, kept across executions
	heap    memMap
)

func registerGlobal[T any](name string, p *T) {
	globals = append(globals, object{uintptr(unsafe.Pointer(p)), unsafe.Sizeof(*p), name})
}

// recordAlloc registers what p refers to: the pointee of a pointer, the
// backing array of a slice, a map or channel (identified by its header).
func recordAlloc(site int, p any) {
	if !(profiling || loopNaming) || p == nil {
		return
	}
	v := reflect.ValueOf(p)
	var base, size uintptr
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		base, size = v.Pointer(), v.Type().Elem().Size()
	case reflect.Slice:
		if v.Cap() == 0 {
			return
		}
		base, size = v.Pointer(), uintptr(v.Cap())*v.Type().Elem().Size()
	case reflect.Map, reflect.Chan:
		if v.IsNil() {
			return
		}
		base, size = v.Pointer(), 1
	default:
		return
	}
	if size == 0 {
		size = 1
	}
	heap.add(object{base, size, objectName(site)})
}

func (m *memMap) add(o object) {
	if m.pages == nil {
		m.pages = map[uintptr][]*liveObject{}
	}
	lo := &liveObject{object: o}
	m.lastPage, m.lastObjs = 0, nil
	for pg := o.base >> pageShift; pg <= (o.base+o.size-1)>>pageShift; pg++ {
		kept := m.pages[pg][:0]
		for _, x := range m.pages[pg] {
			if x.base < o.base+o.size && o.base < x.base+x.size {
				x.dead = true // overlapped: its memory was reused
			}
			if !x.dead {
				kept = append(kept, x)
			}
		}
		m.pages[pg] = append(kept, lo)
	}
}

func (m *memMap) find(a uintptr) (object, bool) {
	if pg := a>>pageShift + 1; pg != m.lastPage {
		m.lastPage, m.lastObjs = pg, m.pages[a>>pageShift]
	}
	for _, x := range m.lastObjs {
		if !x.dead && x.base <= a && a < x.base+x.size {
			return x.object, true
		}
	}
	return object{}, false
}

// varAt names the variable containing address a, or "".
func varAt(a uintptr) string {
	if o, ok := heap.find(a); ok {
		return o.name
	}
	for _, g := range globals {
		if g.base <= a && a < g.base+g.size {
			return g.name
		}
	}
	return ""
}

// observation counts accesses of one site to one variable.
type obsKey struct {
	site int
	name string
}

type obsVal struct {
	accesses   int
	goroutines gset
	write      bool
}

type varVal struct {
	accesses   int
	goroutines gset
}

// gset is a set of goroutine ids: the first 64 in a bit mask (a map
// assignment at every profiled access was a third of a profiling
// worker's CPU), the others in a map.
type gset struct {
	low  uint64
	more map[int]bool
}

func (s *gset) add(id int) {
	if uint(id) < 64 {
		s.low |= 1 << uint(id)
		return
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	s.more[id] = true
}

func (s *gset) len() int { return bits.OnesCount64(s.low) + len(s.more) }

// profile accumulates observations over the executions of a campaign.
// last caches, per site, the entries of the variable it touched last: a
// site touches the same variable again and again, and hashing its name
// twice per access (two map lookups) was most of a profiling worker's
// CPU.
type profile struct {
	sites map[obsKey]*obsVal
	vars  map[string]*varVal
	last  []obsCache
}

type obsCache struct {
	name string
	o    *obsVal
	v    *varVal
}

var prof = &profile{sites: map[obsKey]*obsVal{}, vars: map[string]*varVal{}}

// observe records that goroutine g accessed address a at site.
func (p *profile) observe(site int, g *G, a uintptr, write bool) {
	name := varAt(a)
	if name == "" || site < 0 {
		return
	}
	c := p.entries(site, name)
	c.o.accesses++
	c.o.goroutines.add(g.id)
	c.o.write = c.o.write || write
	c.v.accesses++
	c.v.goroutines.add(g.id)
}

// entries returns the site's and the variable's entries, from the cache
// when the site touched the same variable last (the names of an object
// share their bytes, so the comparison is mostly a pointer's).
func (p *profile) entries(site int, name string) *obsCache {
	for site >= len(p.last) {
		p.last = append(p.last, obsCache{})
	}
	c := &p.last[site]
	if c.o != nil && c.name == name {
		return c
	}
	k := obsKey{site, name}
	o := p.sites[k]
	if o == nil {
		o = &obsVal{}
		p.sites[k] = o
	}
	v := p.vars[name]
	if v == nil {
		v = &varVal{}
		p.vars[name] = v
	}
	*c = obsCache{name, o, v}
	return c
}

// Observation is one line of a profile: a site's accesses to a variable,
// or (Site empty) a variable's totals. ID is the site's id in the
// binary's site table plus one (0: a total, or a profile of a runtime
// before it): several sites share a position (`s.m[k] = v` loads s.m
// and writes the map at one "file:line:col"), and variable bounding must
// activate the one that touched the variable, not all of them.
type Observation struct {
	Site       string `json:"site,omitempty"`
	ID         int    `json:"id,omitempty"`
	Map        bool   `json:"map,omitempty"` // the site is a map operation (VarKey)
	Var        string `json:"var"`
	Access     string `json:"access,omitempty"`
	Goroutines int    `json:"goroutines"`
	Accesses   int    `json:"accesses"`
}

// observations returns the profile, per site and per variable, with k_q
// averaged over the executions (rounded up) and goroutines the largest
// number seen in one execution... kept simple: totals over all executions.
func (p *profile) observations(execs int) []Observation {
	var out []Observation
	for k, o := range p.sites {
		acc := "read"
		if o.write {
			acc = "write"
		}
		out = append(out, Observation{Site: sitePos(k.site), ID: k.site + 1, Map: isMapKind(siteKind(k.site)), Var: k.name, Access: acc, Goroutines: o.goroutines.len(), Accesses: o.accesses})
	}
	for name, v := range p.vars {
		out = append(out, Observation{Var: name, Goroutines: v.goroutines.len(), Accesses: (v.accesses + execs - 1) / max(1, execs)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Var != out[j].Var {
			return out[i].Var < out[j].Var
		}
		return out[i].Site < out[j].Site
	})
	return out
}
