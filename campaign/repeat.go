package campaign

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

// State that outlives an execution. A worker process runs many executions
// of a test; go test runs it once. A test that leaves package-level state
// behind can break the next execution of the same process whatever the
// schedule: groupcache's TestNoDedup registers a group under a fixed name
// ("duplicate registration of group testgroup"), its TestHTTPPool installs a
// process-wide pool ("must be called only once"), and pond's Pool.Stop
// submits to a package-level default pool whose context an earlier
// execution's bubble made (the Go runtime kills the process: "receive on
// synctest channel from outside bubble"). `go test -count=2` fails the same
// way. Such failures are not the program's concurrency bugs: the hunt runs
// the test again with one process per execution (issue 9, item 2), where
// every execution starts from the package state go test gives it. The cost
// is a process start per execution. A test whose first execution in a
// fresh process already breaks (a goroutine started in init using a channel
// of the test) is not supported: exit 2, as before.

// stateOutlives is the error of a worker killed because a goroutine outside
// the execution's bubble used one of its channels.
type stateOutlives struct{ err error }

func (e *stateOutlives) Error() string { return e.err.Error() }
func (e *stateOutlives) Unwrap() error { return e.err }

// runCarried runs the hunt's workers and, when state carried from one
// execution to the next broke an execution, runs the hunt again with one
// process per execution (fresh is then true).
func (b *Binary) runCarried(p Plan, cfg pct.Config, ids []int, hooks runHooks) (recs []pct.Record, fresh bool, err error) {
	recs, err = b.runWorkers(cfg, ids, hooks)
	var carried *stateOutlives
	if !errors.As(err, &carried) {
		if err != nil || p.AllBugs || !chunkable(cfg.Spec) {
			return recs, false, err
		}
		best := firstBug(recs)
		if best != nil && cfg.Workers > 1 && !cfg.RanBefore(best.Execution) && b.passesAlone(cfg, best) {
			return b.runOneAtATime(p, cfg, hooks)
		}
		if best == nil || !cfg.RanBefore(best.Execution) || !b.notRepeatable(cfg, best) {
			return recs, false, nil
		}
	}
	if p.Log != nil {
		p.Log.Write([]byte("gopct: " + cfg.Test + " leaves package state that breaks its next run in the same process; " +
			"running one process per execution\n"))
	}
	workers := max(1, p.Workers)
	recs, err = b.runFresh(cfg, workers, hooks)
	if best := firstBug(recs); err == nil && best != nil && workers > 1 && b.passesAlone(cfg, best) {
		// Both at once: kratos' TestExtract leaves its listener on :12345
		// open, so a second run in one process fails, and two processes
		// run at once collide on the port as well (sweep of stop 32).
		return b.runOneAtATime(p, cfg, hooks)
	}
	return recs, true, err
}

// Worker processes share the machine: a test that listens on a fixed port
// (EventBus's TestServerPublish, :2020) or takes a fixed file fails in the
// second worker process while the first holds it, whatever the schedule;
// go test runs one process. A bug found in the first execution of its
// worker process, while other workers ran, is therefore run again alone,
// in a fresh process (the same execution index: the same schedule). When
// it does not fail the same way there, the failure came from the other
// processes, and the hunt runs again with one process per execution, one
// at a time. The cost: one process run per hunt whose first bug is in the
// first execution of its worker.

// passesAlone reports whether bug's execution, run alone in a fresh
// process, ends without failing as bug did (another failure there is the
// run's own, not the one reported). A run alone that cannot end (EventBus's
// network tests stall on their RPC over TCP) did not confirm the failure
// either: the hunt then runs one process at a time, where such a test
// shows what it does alone (the report of the crowded run was kept before,
// a false panic in the sweep).
func (b *Binary) passesAlone(cfg pct.Config, bug *pct.BugReport) bool {
	alone := cfg
	alone.Worker, alone.Workers, alone.Chunk, alone.Done, alone.Deadline = 0, 1, 0, nil, 0
	alone.AllBugs, alone.Coverage = false, false
	// At the bug's epoch: a failure message that prints a time must read the
	// same in the fresh process (a new epoch made every such bug look like
	// one that passes alone; found in review).
	alone.Epoch = bug.Epoch
	recs, err := b.runAlone(alone, bug.Execution, bug.Execution+1)
	return err != nil || !failsLike(recs, bug.Execution, bug)
}

// runOneAtATime runs the hunt again with one process per execution and no
// two processes at once.
func (b *Binary) runOneAtATime(p Plan, cfg pct.Config, hooks runHooks) ([]pct.Record, bool, error) {
	if p.Log != nil {
		p.Log.Write([]byte("gopct: " + cfg.Test + " fails only while other worker processes run (a fixed port or file they share?); " +
			"running one process at a time\n"))
	}
	recs, err := b.runFresh(cfg, 1, hooks)
	return recs, true, err
}

// firstBug is the bug of the earliest execution in recs, or nil.
func firstBug(recs []pct.Record) *pct.BugReport {
	var best *pct.BugReport
	for _, r := range recs {
		if r.Type == pct.RecBug && (best == nil || r.Bug.Execution < best.Execution) {
			best = r.Bug
		}
	}
	return best
}

// notRepeatable is called for a bug found in an execution that ran after
// others in its worker process. It runs the test twice in a fresh process
// with no preemption at all (PCT with d = 1), then the second of those
// executions alone in another fresh process (the same priorities: they are
// drawn from the seed and the execution index). When the second run fails
// the same way and the same run alone passes, the failure comes from the
// first run's leftovers. Anything else (the run alone fails too, the pair
// does not fail as the hunt did, a process cannot start) keeps the report.
func (b *Binary) notRepeatable(cfg pct.Config, bug *pct.BugReport) bool {
	serial := cfg
	serial.Spec = pct.Spec{Name: "pct", D: 1}
	serial.Worker, serial.Workers, serial.Chunk, serial.Done, serial.Deadline = 0, 1, 0, nil, 0
	serial.AllBugs, serial.Coverage = false, false
	twice, err := b.runAlone(serial, 0, 2)
	if err != nil || !failsLike(twice, 1, bug) || failsAt(twice, 0) {
		return false
	}
	alone, err := b.runAlone(serial, 1, 2)
	return err == nil && !failsAt(alone, 1)
}

// runFresh runs executions [cfg.First, cfg.Iters) each in a process of its
// own, workers at a time, until the deadline or a bug: executions after the
// earliest bug found are not started, and every execution before it runs,
// so the bug reported is the same whatever the number of workers.
func (b *Binary) runFresh(cfg pct.Config, workers int, hooks runHooks) ([]pct.Record, error) {
	one := cfg
	one.Worker, one.Workers, one.Chunk, one.Done = 0, 1, 0, nil
	var (
		mu       sync.Mutex
		all      []pct.Record
		firstErr error
		next     = cfg.First
		bugAt    = -1
		wg       sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		late := cfg.Deadline != 0 && time.Now().UnixNano() > cfg.Deadline
		if firstErr != nil || next >= cfg.Iters || (bugAt >= 0 && next > bugAt) || late {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, ok := take(); ok; i, ok = take() {
				recs, err := b.runAlone(one, i, i+1)
				mu.Lock()
				all = append(all, recs...)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if bug := firstBug(recs); bug != nil && (bugAt < 0 || bug.Execution < bugAt) {
					bugAt = bug.Execution
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return all, firstErr
}

// runAlone runs executions [first, iters) of cfg in a fresh worker process
// and returns its records.
func (b *Binary) runAlone(cfg pct.Config, first, iters int) ([]pct.Record, error) {
	cfg.First, cfg.Iters = first, iters
	w, err := b.start(cfg)
	if err != nil {
		return nil, err
	}
	w.err = w.cmd.Wait()
	reapGroup(w.cmd)
	w.output.Close()
	return w.records()
}

// failsLike says whether recs report execution i failing as bug did.
func failsLike(recs []pct.Record, i int, bug *pct.BugReport) bool {
	for _, r := range recs {
		if r.Type == pct.RecBug && r.Bug.Execution == i && r.Bug.Kind == bug.Kind && sameMessage(r.Bug.Message, bug.Message) {
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

// A bug found in a later execution of its worker process, while other
// workers ran, is not run alone at once (passesAlone runs only first
// executions): run alone in a fresh process, a later execution gets
// another schedule, because PCT's change points use the step estimate that
// the worker's earlier executions calibrated. Its replay token reruns those
// executions first, in a process of its own: when that replay does not
// fail as the hunt did, the failure may have come from the other workers
// (buntdb's TestCoverShrinkShrink: two workers renamed data.db in the
// package directory at once, sweep of stop 30). The hunt then runs again
// in one worker process, which runs the chunks in order and so the same
// executions (their outcome does not depend on the number of workers).

// crowded says whether h's bug may come from the other worker processes of
// run: its replay ran and did not reproduce it, and the worker that found
// it ran other executions first while other workers ran.
func (b *Binary) crowded(run huntRun, h *huntResult) bool {
	bug := h.summary.Bug
	if bug == nil || run.queue || run.fresh || run.cfg.Workers <= 1 || run.p.Shards > 1 {
		return false
	}
	check := bug.ReplayCheck
	if check == "" || check == results.ReplayReproduced || strings.HasPrefix(check, "not checked") {
		return false
	}
	return run.cfg.RanBefore(bug.Execution)
}

// huntAlone runs the hunt of a crowded bug again in one worker process.
// When that run ends (its budget spent) before the execution that failed,
// the crowded report stands, with its replay's warning.
func (b *Binary) huntAlone(run huntRun, crowded *huntResult, hooks runHooks) (*huntResult, error) {
	bug := crowded.summary.Bug
	if run.p.Log != nil {
		fmt.Fprintf(run.p.Log, "gopct: %s: execution %d failed while other worker processes ran, and its replay did not fail so (%s); "+
			"running the hunt again in one process\n", run.test, bug.Execution, bug.ReplayCheck)
	}
	alone := run
	alone.p.Workers = 1
	alone.cfg.Workers = 1
	var err error
	alone.recs, alone.fresh, err = b.runCarried(alone.p, alone.cfg, nil, hooks)
	if err != nil {
		return nil, err
	}
	h := b.summarize(alone)
	ran := h.summary.Executions - h.summary.Resumed
	if h.summary.Bug == nil && ran < executionsThrough(alone.cfg, bug.Execution) {
		return crowded, nil
	}
	return h, nil
}

// executionsThrough is how many executions one worker of cfg runs up to
// and including execution i (the chunks that Done lists are skipped).
func executionsThrough(cfg pct.Config, i int) int {
	n := 0
	for j := cfg.First; j <= i; j++ {
		if cfg.Chunk <= 0 || !slices.Contains(cfg.Done, (j-cfg.First)/cfg.Chunk) {
			n++
		}
	}
	return n
}
