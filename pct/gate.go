package pct

// The memory gate. A run may make only some memory accesses scheduling
// points: those that may touch chosen variables of Q (Config.Vars, through
// the site→variable table the instrumenter generates from the alias
// analysis) or chosen sites (Config.Sites). Synchronisation operations
// (channels, select, mutexes, WaitGroup, Once, Cond, atomics, sync.Map,
// len/cap of channels, sleeps, timers, go statements) never consult the
// gate: they are scheduling points in every run, since dropping one would
// lose the happens-before edges the strategies and observers rely on.
//
// Only Load, Store and the map operations (mapAccess) consult the gate.
// Load and Store index the array gate itself: generated code passes
// constant site ids, so once they are inlined the compiler drops the bounds
// check, and an inactive site costs the compare of a byte at a fixed
// address and a predicted branch, with the scheduling point outlined
// (BenchmarkInactiveSite: 0.41 ns per gated load, against 0.68 ns through
// the bounds-checked slice).

// SharedGateSize is the gate of the runtime as the package ships it, which
// builds share (instrument.Config.RuntimeCache): 256 KB of switches, of
// which a run clears and touches only its table's.
const SharedGateSize = 1 << 18

// gate holds the switches of the memory sites; sitesActive is its first
// len(siteTable) entries, so the two never disagree.
var gate [gateSize]bool

// gateUsed is how many switches of gate a run may have set.
var gateUsed int

// sitesActive[i] says whether memory site i is a scheduling point in this
// run. Entries of non-memory sites are never read.
var sitesActive []bool

// resetGate switches every site off and returns the switches of n sites.
func resetGate(n int) []bool {
	if n > gateSize {
		panic("gopct: the site table is larger than the memory gate (gatesize.go)")
	}
	clear(gate[:max(gateUsed, n)])
	gateUsed = n
	return gate[:n:n]
}

// memoryOn is the gate of a memory-access site. Site ids are never
// negative; ids beyond the table (none in generated code) are off.
func memoryOn(site int) bool { return site < len(sitesActive) && sitesActive[site] }

// activateSites switches on the given memory sites, or all when ids is nil.
func activateSites(ids []int) {
	for i := range sitesActive {
		sitesActive[i] = ids == nil
	}
	for _, id := range ids {
		if uint(id) < uint(len(sitesActive)) {
			sitesActive[id] = true
		}
	}
}

// VarInfo is one variable of Q, named as the alias analysis and the
// profiling runtime name it.
type VarInfo struct {
	Name string `json:"name"` // "pkgpath.Name" for a global, the allocation's "file:line:col"
	Kind string `json:"kind"` // "global" or "alloc"
	Type string `json:"type,omitempty"`
}

var (
	varTable    []VarInfo
	siteVarsEnc []int32
	// siteVars[i] lists the variables site i may touch; nil: unknown
	// (the analysis did not run or did not see the site: any variable).
	siteVars [][]int32
)

// RegisterSiteVars installs the variables of Q and what each site may
// touch. enc holds, for each site in id order, either -1 (unknown: any
// variable) or a count n followed by n variable ids. The instrumenter
// generates one call from an init function; it may run before or after
// RegisterSites. A table that does not decode leaves every site unknown:
// the gate then never switches off a site that a chosen variable may need.
func RegisterSiteVars(vars []VarInfo, enc []int32) {
	varTable, siteVarsEnc = vars, enc
	siteVars = decodeSiteVars(enc, len(siteTable), len(vars))
}

func decodeSiteVars(enc []int32, sites, vars int) [][]int32 {
	out := make([][]int32, 0, sites)
	for i := 0; i < len(enc); {
		n := int(enc[i])
		i++
		if n < 0 {
			out = append(out, nil)
			continue
		}
		if n > len(enc)-i || !validIDs(enc[i:i+n], vars) {
			return nil
		}
		out = append(out, enc[i:i+n:i+n])
		i += n
	}
	if len(out) != sites || sites == 0 {
		return nil
	}
	return out
}

func validIDs(ids []int32, vars int) bool {
	for _, id := range ids {
		if id < 0 || int(id) >= vars {
			return false
		}
	}
	return true
}

// mayTouch says whether site may touch a variable of want.
func mayTouch(site int, want map[int32]bool) bool {
	if site >= len(siteVars) || siteVars[site] == nil {
		return true
	}
	for _, v := range siteVars[site] {
		if want[v] {
			return true
		}
	}
	return false
}

// activateMemory chooses the memory sites that are scheduling points: the
// given sites and those that may touch one of vars; every one when both
// are nil. Sync operations are not affected (see above).
func activateMemory(sites, vars []int) {
	sitesActive = resetGate(len(siteTable))
	if sites == nil && vars != nil {
		sites = []int{}
	}
	activateSites(sites)
	if vars == nil {
		return
	}
	want := map[int32]bool{}
	for _, v := range vars {
		want[int32(v)] = true
	}
	for i, s := range siteTable {
		if isMemory(s.Kind) && mayTouch(i, want) {
			sitesActive[i] = true
		}
	}
}
