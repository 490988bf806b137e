package pct

import "time"

// Tests that start processes (groupcache's TestHTTPPool runs four copies of
// its own binary as HTTP peers, then polls them with net.Dial and
// time.Sleep until they listen) wait for things that happen in real time.
// The fake clock runs ahead of it without bound: the poll's backoff reached
// the test's 10 minutes of fake time in milliseconds of real time, before
// the peers had started, and gopct reported a false hang. While the test
// has child processes alive, the fake clock therefore stays within
// paceLead of the real time the execution has run: passing time first
// waits, really, for at most paceStep. Tests without child processes
// never wait (the check reads /proc only once the clock is paceLead ahead,
// and at most once per paceCheck of real time).
const (
	paceLead  = time.Second
	paceStep  = 100 * time.Millisecond
	paceCheck = 100 * time.Millisecond
)

// keepPace is called before the fake clock moves by d.
func (e *execution) keepPace(d time.Duration) {
	ahead := now().Add(d).Sub(e.clockStart) - (realNow() - e.realStart)
	if ahead <= paceLead || !e.childrenAlive() {
		return
	}
	realSleep(min(ahead-paceLead, paceStep))
	progress.Add(1) // waiting for the children is progress for the stall watchdog
}

// childrenAlive says, from a cache refreshed every paceCheck of real
// time, whether the process has child processes that have not exited.
func (e *execution) childrenAlive() bool {
	if t := realNow(); t-e.childrenAt > paceCheck {
		e.childrenAt, e.children = t, hasLiveChildren()
	}
	return e.children
}
