package campaign

import "github.com/gopct/gopct/pct"

// A test that leaves package-level state behind can fail the second time it
// runs in one process whatever the schedule: groupcache's TestNoDedup
// registers a group under a fixed name ("duplicate registration of group
// testgroup") and its TestHTTPPool installs a process-wide HTTP pool ("must
// be called only once"). go test runs a test once per process, and
// `go test -count=2` fails the same way; gopct runs many executions in each
// worker process, so it saw a failure the user's go test never shows. Such
// a failure is not a concurrency bug and is not reported as one: the hunt
// ends with an error that says why (exit 2), as the issue allows for state
// that cannot be carried from one execution to the next.

// notRepeatable is called for a bug found in an execution that ran after
// others in its worker process. It runs the test twice in a fresh process
// with no preemption at all (PCT with d = 1), then the second of those
// executions alone in another fresh process (the same priorities: they are
// drawn from the seed and the execution index). When the second run fails
// the same way and the same run alone passes, the failure comes from the
// first run's leftovers, and the error says so. Anything else (the run
// alone fails too, the pair does not fail as the hunt did, a process cannot
// start) keeps the report.
func (b *Binary) notRepeatable(cfg pct.Config, bug *pct.BugReport) error {
	serial := cfg
	serial.Spec = pct.Spec{Name: "pct", D: 1}
	serial.Worker, serial.Workers, serial.Chunk, serial.Done, serial.Deadline = 0, 1, 0, nil, 0
	serial.AllBugs, serial.Coverage = false, false
	twice, ok := b.runAlone(serial, 0, 2)
	if !ok || !failsLike(twice, 1, bug) || failsAt(twice, 0) {
		return nil
	}
	alone, ok := b.runAlone(serial, 1, 2)
	if !ok || failsAt(alone, 1) {
		return nil
	}
	return userErr("%s fails only when it runs again in the same process: %q (%s) in its second run with no "+
		"preemption, while that run alone passes. The test is not repeatable (go test -count=2 fails the same way): "+
		"its first run leaves package-level state behind (a registration under a fixed name, a process-wide "+
		"handler or pool) that the next run trips over. gopct runs many executions per process; make the test "+
		"repeatable (unique names per run, or state created by the test) to hunt it", cfg.Test, bug.Message, bug.At)
}

// runAlone runs executions [first, iters) of cfg in a fresh worker process
// and returns its records; ok is false when the process could not run.
func (b *Binary) runAlone(cfg pct.Config, first, iters int) ([]pct.Record, bool) {
	cfg.First, cfg.Iters = first, iters
	w, err := b.start(cfg)
	if err != nil {
		return nil, false
	}
	w.err = w.cmd.Wait()
	w.output.Close()
	recs, err := w.records()
	return recs, err == nil
}

// failsLike says whether recs report execution i failing as bug did.
func failsLike(recs []pct.Record, i int, bug *pct.BugReport) bool {
	for _, r := range recs {
		if r.Type == pct.RecBug && r.Bug.Execution == i && r.Bug.Kind == bug.Kind && r.Bug.Message == bug.Message {
			return true
		}
	}
	return false
}

// failsAt says whether recs report any bug in execution i.
func failsAt(recs []pct.Record, i int) bool {
	for _, r := range recs {
		if r.Type == pct.RecBug && r.Bug.Execution == i {
			return true
		}
	}
	return false
}
