package pct

import "sync"

// Goroutines that serve the process, not the test.
//
// A package that starts a goroutine once per process does it under a
// package-level sync.Once: fasthttp's date refresher, started by the first
// response a server writes (serverDateOnce), sleeps a second and refreshes
// the Date header's value for the life of the process. The test that
// happens to serve the first response did not leak it, and go test says
// nothing; gopct counted it as that test's leak (two FALSE reports on
// fasthttp's client tests, sweep fresh35). The instrumenter rewrites Do on a
// package-level variable (or a field of one) to OnceDoGlobal; a goroutine
// started while its function runs, or by such a goroutine, is a daemon, and
// a test that returns leaving only daemons has not leaked. A Once in the
// heap (a field of a server, a cache) is per object, and what it starts is
// the object's: still a leak when left behind.

// onceDoGlobal is onceDo for a package-level Once.
func onceDoGlobal(site int, o *sync.Once, f func()) {
	e, g := self()
	if e == nil {
		o.Do(f)
		return
	}
	g.inGlobalOnce++
	defer func() { g.inGlobalOnce-- }()
	onceDo(site, o, f)
}

// onlyDaemonsLeft says whether daemons are the only goroutines of the test
// that have not ended (adopted callbacks that never started aside), and
// there is at least one.
func (e *execution) onlyDaemonsLeft() bool {
	some := false
	for _, g := range e.gs[1:] {
		if g.state == gDone || g.state == gDormant {
			continue
		}
		if !g.daemon {
			return false
		}
		some = true
	}
	return some
}

func daemonsLeft() *Failure {
	return &Failure{Kind: FailDaemons, Site: -1, Goroutine: -1, Message: "the test returned leaving only goroutines " +
		"started under a package-level sync.Once, which serve the process"}
}
