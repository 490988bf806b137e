package pct

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// A shared work queue (Config.Queue): the campaign owns the queue of an
// exhaustive search and hands its work items to several worker processes.
// A worker reads tasks, one JSON line each, from file descriptor 3, runs
// each item's execution and writes results, JSON lines, to descriptor 4:
// a key line as soon as the item's prefix ends (so that the campaign knows
// the pruning key even if the process dies later in the execution), then
// the final line with the outcome and the new items the execution made.
// The campaign decides pruning and counts in the order the one-process
// search would pop the items (campaign/queue.go); a worker gives up an
// execution early only on a key the campaign has sent it as seen, which
// the one-process search would prune too (seen keys are never removed).

// QueueItem is a work item as it travels between campaign and workers: a
// schedule prefix, the preemptions it spent, and (exhaustive-issta) its
// priority-order family.
type QueueItem struct {
	Prefix []int `json:"p,omitempty"`
	C      int   `json:"c,omitempty"`
	Fam    int   `json:"f,omitempty"`
}

// SeenKey is a pruning key the campaign recorded, with the preemptions of
// the item that recorded it.
type SeenKey struct {
	H uint64 `json:"h"`
	C int    `json:"c"`
}

// QueueTask is one work item for a worker, with the keys recorded since
// the worker's previous task, in the order they were recorded.
type QueueTask struct {
	Exec int       `json:"e"`
	Item QueueItem `json:"i"`
	Seen []SeenKey `json:"s,omitempty"`
}

// QueueResult is what a worker reports of a task.
type QueueResult struct {
	Exec  int    `json:"e"`
	Final bool   `json:"end,omitempty"` // false: the key line
	Key   uint64 `json:"k,omitempty"`
	Keyed bool   `json:"kd,omitempty"` // the prefix ended (an item with an empty prefix has no key)
	// Kind is the execution's failure ("": it passed); Bug its report when
	// it is a bug, Error its message when the environment failed.
	Kind  FailureKind `json:"kind,omitempty"`
	Bug   *BugReport  `json:"bug,omitempty"`
	Error string      `json:"err,omitempty"`
	// The new items: each is the execution's path up to one of its
	// decisions after the prefix, then another answer. Path is the path
	// after the item's prefix; Children holds (decision, answer,
	// preemptions) triples (see Items), in the order they were made.
	Path        []int    `json:"path,omitempty"`
	Children    []int    `json:"ch,omitempty"`
	Recorded    []uint64 `json:"rec,omitempty"` // keys the execution recorded as explored (after its select choices)
	Steps       int      `json:"steps,omitempty"`
	Class       uint64   `json:"cl,omitempty"`
	HasClass    bool     `json:"hcl,omitempty"` // Class is the execution's coverage hash
	Unmanaged   bool     `json:"um,omitempty"`
	UnmanagedAt string   `json:"umAt,omitempty"`
}

// Items are the new items of the execution of item it that gave res.
func (res *QueueResult) Items(it QueueItem) []QueueItem {
	path := append(append([]int(nil), it.Prefix...), res.Path...)
	var out []QueueItem
	for i := 0; i+2 < len(res.Children); i += 3 {
		k, alt, c := res.Children[i], res.Children[i+1], res.Children[i+2]
		prefix := append(append(make([]int, 0, k+1), path[:k]...), alt)
		out = append(out, QueueItem{Prefix: prefix, C: c, Fam: it.Fam})
	}
	return out
}

// queued is a search whose items can come from outside.
type queued interface {
	Strategy
	base() *exhaustive
	start(workItem)
	initialItems() []workItem
}

func (x *exhaustive) base() *exhaustive { return x }

// InitialQueueItems are the items an exhaustive search of spec starts
// from, the first to pop last.
func InitialQueueItems(spec Spec) ([]QueueItem, error) {
	s, err := NewStrategy(spec)
	if err != nil {
		return nil, err
	}
	q, ok := s.(queued)
	if !ok {
		return nil, fmt.Errorf("strategy %s has no work queue", spec.Name)
	}
	var out []QueueItem
	for _, it := range q.initialItems() {
		out = append(out, QueueItem{Prefix: it.prefix, C: it.c, Fam: it.fam})
	}
	return out, nil
}

// serveQueue runs the tasks the campaign sends until it closes the task
// stream, then writes the done record.
func (r *runner) serveQueue(strat Strategy, limits *stepLimits, crash *crashLog, body func(*testing.T)) {
	q, ok := strat.(queued)
	if !ok {
		r.emit(Record{Type: RecError, Message: "strategy " + r.cfg.Spec.Name + " has no work queue"})
		return
	}
	x := q.base()
	x.remote = true
	in, out := bufio.NewScanner(os.NewFile(3, "gopct-tasks")), bufio.NewWriter(os.NewFile(4, "gopct-results"))
	in.Buffer(make([]byte, 1<<20), 1<<28)
	write := func(res QueueResult) {
		b, _ := json.Marshal(res)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	execs := 0
	for r.next(in) {
		var t QueueTask
		if err := json.Unmarshal(in.Bytes(), &t); err != nil {
			r.emit(Record{Type: RecError, Message: "bad work item: " + err.Error()})
			return
		}
		for _, k := range t.Seen {
			x.seen[k.H] = k.C
		}
		q.start(workItem{prefix: t.Item.Prefix, c: t.Item.C, fam: t.Item.Fam})
		x.onKey = func(h uint64) { write(QueueResult{Exec: t.Exec, Key: h, Keyed: true}) }
		classes := len(coverageClasses())
		e := r.execute(t.Exec, strat, limits, crash, body)
		execs++
		res := r.queueResult(t.Exec, x, e)
		if cl := coverageClasses(); len(cl) > classes {
			res.Class, res.HasClass = cl[len(cl)-1], true
		}
		write(res)
		if res.Error != "" {
			break
		}
	}
	r.emit(Record{Type: RecDone, Executions: execs, Spec: &r.cfg.Spec})
}

// next waits for the next task (the stall watchdog does not count the
// wait).
func (r *runner) next(in *bufio.Scanner) bool {
	r.waiting.Store(true)
	defer r.waiting.Store(false)
	return in.Scan()
}

// queueResult is the final result line of an execution.
func (r *runner) queueResult(exec int, x *exhaustive, e *execution) QueueResult {
	res := QueueResult{Exec: exec, Final: true, Key: x.key, Keyed: x.keyed, Steps: e.step}
	res.Path = x.path[len(x.cur.prefix):]
	res.Recorded = x.recorded
	for _, it := range x.children {
		k := len(it.prefix) - 1
		res.Children = append(res.Children, k, it.prefix[k], it.c)
	}
	var u unmanagedTally
	u.add(e)
	res.Unmanaged, res.UnmanagedAt = u.executions > 0, u.at
	if f := e.failure; f != nil {
		res.Kind = f.Kind
		switch {
		case f.Kind.IsEnvironment():
			res.Error = f.Message
		case f.Kind.IsBug():
			res.Bug = e.report()
		}
	}
	return res
}
