package campaign

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/gopct/gopct/pct"
)

// The shared work queue of an exhaustive search with several workers
// (explore/classify -workers W, W > 1). The campaign owns the queue: one
// stack of work items per context bound, as the one-process search keeps
// them (pct/exhaustive.go), and it commits the items' results in exactly
// the order that search would pop them: the top of the lowest non-empty
// bound's stack, whose result then pushes the new items the execution
// made. Pruning and the counts are decided at commit, against the keys
// committed before, so the per-bound table, the bugs and their order are
// those of the one-process search whatever W is.
//
// The workers run ahead: every item on a stack will be popped (unless the
// search stops at a bug), and its execution does not depend on when it
// runs, so idle workers take the items that will be popped soonest (from
// the top of the current bound's stack down, then the next bounds) and
// the results wait for their turn. A worker gives up an execution at the
// end of its prefix only when its key was already committed (sent with its
// tasks), which the one-process search would prune too; an item whose key
// is committed only while it runs is executed fully and counted as pruned
// at commit (wasted work, not a different outcome).
//
// What can still depend on W: executions longer than 2^20 steps, whose
// step limit each process calibrates from its own finished executions
// (give -max-steps to fix it), and programs whose behaviour depends on
// package-level state left by earlier executions in the same process.

// lookahead bounds the items run ahead of the commit point, per worker.
const lookahead = 16

// queueItem is a work item of the shared queue.
type queueItem struct {
	item    pct.QueueItem
	running bool
	task    int              // task number (the worker's execution index)
	key     *pct.QueueResult // the key line, once the prefix ended
	res     *pct.QueueResult // the final result
	died    bool             // the process running it died (a fatal bug)
}

// queueWorker is a worker process serving the queue.
type queueWorker struct {
	*worker
	tasks *os.File
	sent  int        // committed keys sent to it
	item  *queueItem // the item it runs; nil: idle
	gone  bool
}

// queueEvent is a line a worker wrote, or the end of its results (eof).
type queueEvent struct {
	w   *queueWorker
	res *pct.QueueResult
	eof bool
}

// sharedQueue is the campaign's side of the search.
type sharedQueue struct {
	b        *Binary
	cfg      pct.Config
	maxC     int
	stacks   [][]*queueItem // per bound; the top is last
	bound    int
	seen     map[uint64]int
	log      []pct.SeenKey // committed keys, in order
	tasks    int
	workers  []*queueWorker
	events   chan queueEvent
	replaced int
	done     pct.Record // the totals, as a one-process worker's done record
	bugs     []pct.Record
	stop     bool // a bug ended the search
	cpu      *time.Duration
	wasted   int // items run to their end that the commit then pruned
}

// runQueue runs an exhaustive search with n worker processes sharing its
// work queue and returns records shaped as one worker's: its bugs, then a
// done record with the totals.
func (b *Binary) runQueue(cfg pct.Config, n int, hooks runHooks) ([]pct.Record, error) {
	items, err := pct.InitialQueueItems(cfg.Spec)
	if err != nil {
		return nil, err
	}
	cfg.Queue, cfg.Workers = true, 1
	q := &sharedQueue{b: b, cfg: cfg, maxC: cfg.Spec.C, stacks: make([][]*queueItem, cfg.Spec.C+1),
		seen: map[uint64]int{}, events: make(chan queueEvent, 4*n), cpu: hooks.cpu}
	q.done = pct.Record{Version: pct.SchemaVersion, Type: pct.RecDone, Spec: &cfg.Spec, Bounds: make([]pct.BoundStats, cfg.Spec.C+1)}
	for i := range q.done.Bounds {
		q.done.Bounds[i].Bound = i
	}
	for _, it := range items {
		q.push(it)
	}
	defer q.shutdown()
	for range n {
		if err := q.startWorker(); err != nil {
			return nil, err
		}
	}
	if err := q.loop(hooks); err != nil {
		return nil, err
	}
	q.done.Finished = q.done.Executions - q.done.Abandoned
	if os.Getenv("GOPCT_QUEUE_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "gopct: shared queue: %d tasks, %d run to their end and pruned at commit\n", q.tasks, q.wasted)
	}
	return append(q.bugs, q.done), nil
}

// loop commits what it can, hands out items, and waits for results.
func (q *sharedQueue) loop(hooks runHooks) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := q.commitReady(); err != nil || q.stop {
			return err
		}
		if q.top() == nil {
			q.done.Complete = true
			return nil
		}
		if q.cfg.Deadline != 0 && time.Now().UnixNano() > q.cfg.Deadline {
			return nil
		}
		q.dispatch()
		select {
		case ev := <-q.events:
			if err := q.handle(ev); err != nil {
				return err
			}
		case <-tick.C:
			if hooks.progress != nil {
				hooks.progress(q.done.Executions)
			}
		}
	}
}

// top is the item the one-process search pops next (nil: none left).
func (q *sharedQueue) top() *queueItem {
	for q.bound <= q.maxC && len(q.stacks[q.bound]) == 0 {
		q.bound++
	}
	if q.bound > q.maxC {
		return nil
	}
	s := q.stacks[q.bound]
	return s[len(s)-1]
}

func (q *sharedQueue) push(it pct.QueueItem) {
	q.stacks[it.C] = append(q.stacks[it.C], &queueItem{item: it})
}

// commitReady pops and commits items while the next one has its result.
func (q *sharedQueue) commitReady() error {
	for !q.stop {
		it := q.top()
		if it == nil || it.res == nil {
			return nil
		}
		s := q.stacks[q.bound]
		q.stacks[q.bound] = s[:len(s)-1]
		if err := q.commit(it); err != nil {
			return err
		}
	}
	return nil
}

// commit counts an item's execution as the one-process search counts it
// (pct/exhaustive.go and the runner's loop) and queues its new items.
func (q *sharedQueue) commit(it *queueItem) error {
	r, d, st := it.res, &q.done, &q.done.Bounds[q.bound]
	exec := d.Executions
	d.Executions++
	if key := keyOf(it); key != nil {
		if c, ok := q.seen[key.Key]; ok && c <= it.item.C {
			st.Pruned++
			d.Abandoned++
			if r.Kind != pct.FailAbandoned {
				q.wasted++
			}
			return nil
		}
		q.seen[key.Key] = it.item.C
		q.log = append(q.log, pct.SeenKey{H: key.Key, C: it.item.C})
		st.Classes++
	}
	for _, h := range r.Recorded { // as the one-process search records them
		if c, ok := q.seen[h]; !ok || c > it.item.C {
			q.seen[h] = it.item.C
			q.log = append(q.log, pct.SeenKey{H: h, C: it.item.C})
		}
	}
	if r.Kind != pct.FailAbandoned {
		st.Executed++
		if r.HasClass {
			d.Classes = append(d.Classes, r.Class)
		}
	}
	for _, c := range r.Items(it.item) {
		q.push(c)
	}
	d.MaxSteps = max(d.MaxSteps, r.Steps)
	if r.Unmanaged {
		d.Unmanaged++
		if d.UnmanagedAt == "" {
			d.UnmanagedAt = r.UnmanagedAt
		}
	}
	switch {
	case r.Error != "":
		return userErr("%s", r.Error)
	case r.Bug != nil:
		r.Bug.Execution = exec
		q.bugs = append(q.bugs, pct.Record{Version: pct.SchemaVersion, Type: pct.RecBug, Executions: d.Executions, Bug: r.Bug, Spec: &q.cfg.Spec})
		q.stop = !q.cfg.AllBugs || it.died // a process that died ends the one-process search too
	case r.Kind != "":
		d.Abandoned++
	}
	return nil
}

// keyOf is the item's pruning key, if its prefix ended.
func keyOf(it *queueItem) *pct.QueueResult {
	switch {
	case it.res != nil && it.res.Keyed:
		return it.res
	case it.key != nil:
		return it.key
	}
	return nil
}

// dispatch gives idle workers the items popped soonest that no worker has
// taken yet, looking at most lookahead items per worker ahead.
func (q *sharedQueue) dispatch() {
	idle := []*queueWorker{}
	for _, w := range q.workers {
		if !w.gone && w.item == nil {
			idle = append(idle, w)
		}
	}
	budget := lookahead * len(q.workers)
	for c := q.bound; c <= q.maxC && len(idle) > 0 && budget > 0; c++ {
		s := q.stacks[c]
		for i := len(s) - 1; i >= 0 && len(idle) > 0 && budget > 0; i-- {
			budget--
			if it := s[i]; !it.running && it.res == nil {
				q.send(idle[0], it)
				idle = idle[1:]
			}
		}
	}
}

// send hands an item to a worker, with the keys committed since its last.
func (q *sharedQueue) send(w *queueWorker, it *queueItem) {
	it.running, it.task, it.key = true, q.tasks, nil
	q.tasks++
	w.item = it
	t := pct.QueueTask{Exec: it.task, Item: it.item, Seen: q.log[w.sent:]}
	w.sent = len(q.log)
	line, _ := json.Marshal(t)
	// A failed write means the process is gone: its end comes as an event.
	w.tasks.Write(append(line, '\n'))
}

// handle takes a worker's line or end.
func (q *sharedQueue) handle(ev queueEvent) error {
	w := ev.w
	switch {
	case ev.eof:
		return q.ended(w)
	case w.item == nil || ev.res.Exec != w.item.task:
		return fmt.Errorf("gopct internal: worker result for task %d, not the one it runs", ev.res.Exec)
	case !ev.res.Final:
		w.item.key = ev.res
	default:
		w.item.res, w.item.running, w.item = ev.res, false, nil
	}
	return nil
}

// ended handles a worker process that exited: at the deadline, or in an
// execution (a fatal bug, which the execution's result becomes, or a
// death the replay does not reproduce: the item runs again elsewhere),
// or because the test stalled or the environment failed (an error).
func (q *sharedQueue) ended(w *queueWorker) error {
	w.gone = true
	q.addCPU(w)
	it := w.item
	w.item = nil
	if q.cfg.Deadline != 0 && time.Now().UnixNano() > q.cfg.Deadline {
		return nil
	}
	recs, err := w.records()
	if err != nil {
		return err
	}
	if it == nil || !w.died {
		return fmt.Errorf("gopct internal: a worker process of the shared queue ended early (%v):\n%s", w.err, tail(q.output(w), 4000))
	}
	it.running = false
	if q.b.reproducesDeath(w.worker, recs) {
		bug := recs[0].Bug
		it.res, it.died = &pct.QueueResult{Exec: it.task, Final: true, Kind: bug.Kind, Bug: bug}, true
		if it.key != nil {
			it.res.Key, it.res.Keyed = it.key.Key, true
		}
	} else if q.replaced++; q.replaced > maxReplacements {
		return diedUnreplayed(q.replaced, recs[0].Bug.Message)
	}
	return q.startWorker()
}

func (q *sharedQueue) output(w *queueWorker) string {
	out, _ := os.ReadFile(w.output.Name())
	return w.paths.Replace(string(out))
}

// startWorker starts a worker process with its task and result pipes.
func (q *sharedQueue) startWorker() error {
	tr, tw, err := os.Pipe()
	if err != nil {
		return err
	}
	rr, rw, err := os.Pipe()
	if err != nil {
		tr.Close()
		tw.Close()
		return err
	}
	w0, err := q.b.start(q.cfg, tr, rw)
	tr.Close()
	rw.Close()
	if err != nil {
		tw.Close()
		rr.Close()
		return err
	}
	w := &queueWorker{worker: w0, tasks: tw}
	q.workers = append(q.workers, w)
	go q.read(w, rr)
	return nil
}

// read forwards a worker's result lines, then its end (once it exited).
func (q *sharedQueue) read(w *queueWorker, r *os.File) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var res pct.QueueResult
		if json.Unmarshal([]byte(w.paths.Replace(sc.Text())), &res) == nil {
			q.events <- queueEvent{w: w, res: &res}
		}
	}
	r.Close()
	w.err = w.cmd.Wait()
	w.output.Close()
	q.events <- queueEvent{w: w, eof: true}
}

// shutdown ends the workers (closing their tasks; killing those still in
// an execution run ahead) and waits for them.
func (q *sharedQueue) shutdown() {
	for _, w := range q.workers {
		w.tasks.Close()
		if !w.gone && w.item != nil {
			w.cmd.Process.Kill()
		}
	}
	for alive := q.alive(); alive > 0; {
		ev := <-q.events
		if !ev.eof {
			continue
		}
		ev.w.gone = true
		alive--
		q.addCPU(ev.w)
	}
}

func (q *sharedQueue) addCPU(w *queueWorker) {
	if st := w.cmd.ProcessState; st != nil && q.cpu != nil {
		*q.cpu += st.UserTime() + st.SystemTime()
	}
}

// alive counts the workers whose end has not been read.
func (q *sharedQueue) alive() int {
	n := 0
	for _, w := range q.workers {
		if !w.gone {
			n++
		}
	}
	return n
}
