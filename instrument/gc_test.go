package instrument

import "runtime/debug"

// The tests of this package load and type-check packages from source
// (go/packages LoadAllSyntax, for the SSA and points-to analysis): with the
// default GOGC=100 much of that CPU time is garbage collection. The test
// process lets the heap grow to 5x the live heap between collections, up
// to 3 GiB (executions run in the test binaries the tests build, with
// their own default GC; see cmd/gopct's lessGC).
func init() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(3 << 30)
}
