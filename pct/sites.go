package pct

import (
	"fmt"
	"strings"
)

// isMemory says whether a site kind is a memory access (a variable's).
func isMemory(k SiteKind) bool {
	return k == KindRead || k == KindWrite || k == KindMapRead || k == KindMapWrite
}

// onObject says whether a site kind operates on a shared object: a
// variable, or a sync object (mutex, channel, WaitGroup, Once, Cond, an
// atomic). The ISSTA paper counts a preemption against the object the
// preempted thread accessed last.
func onObject(k SiteKind) bool {
	switch k {
	case KindGo, KindSleep, KindTimer, KindTestFail, KindOther, KindAlloc, 0:
		return false
	}
	return true
}

// VarKey names a site in the site→variable table (instrument.VarTable,
// built from the alias analysis): its position, and for a map operation
// its position and " map". One position can hold a plain access and a
// map operation on different variables: `s.m[k] = v` loads s.m (a field
// of *s) and writes the map it holds, both at the position of s.
func VarKey(pos string, kind SiteKind) string {
	if isMapKind(kind) {
		return pos + " map"
	}
	return pos
}

func isMapKind(k SiteKind) bool { return k == KindMapRead || k == KindMapWrite }

// siteKind returns what the site does (0 for an unknown site).
func siteKind(site int) SiteKind {
	if uint(site) < uint(len(siteTable)) {
		return siteTable[site].Kind
	}
	return 0
}

func sitePos(site int) string {
	if uint(site) < uint(len(siteTable)) {
		return siteTable[site].Pos
	}
	if site < 0 {
		return "(test start)"
	}
	return fmt.Sprintf("site#%d", site)
}

var kindVerbs = map[SiteKind]string{
	KindRead: "read", KindWrite: "write", KindGo: "go", KindSend: "send",
	KindRecv: "receive", KindClose: "close", KindSelect: "select", KindLock: "lock",
	KindUnlock: "unlock", KindRLock: "rlock", KindRUnlock: "runlock",
	KindWGAdd: "WaitGroup.Add", KindWGWait: "WaitGroup.Wait", KindOnce: "Once.Do",
	KindCondWait: "Cond.Wait", KindCondSignal: "Cond.Signal", KindAtomic: "atomic", KindAtomicLoad: "atomic load",
	KindSleep: "sleep", KindTimer: "timer", KindMapRead: "map read",
	KindMapWrite: "map write", KindTestFail: "t.Error", KindOther: "op", KindAlloc: "alloc",
}

// siteOp describes the operation at a site, e.g. "write b.balance".
func siteOp(site int) string {
	if uint(site) >= uint(len(siteTable)) {
		return ""
	}
	s := siteTable[site]
	verb := kindVerbs[s.Kind]
	if s.Kind == KindWGAdd && strings.HasSuffix(s.Expr, ".Done()") {
		verb = "WaitGroup.Done" // wg.Done() is Add(-1) to the model, not to the reader
	}
	return strings.TrimSpace(verb + " " + s.Expr)
}
