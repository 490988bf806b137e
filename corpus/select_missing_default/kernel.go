// Package select_missing_default: a metrics reporter pushes snapshots to its
// subscribers with a select meant to be non-blocking but written without a
// default case. A subscriber that read its snapshot and is leaving, with one
// more snapshot already in its buffer, makes the reporter block forever.
package select_missing_default

import "sync"

type Snapshot struct {
	Seq      int
	Requests int
}

type Reporter struct {
	mu   sync.Mutex
	subs map[int]chan Snapshot
	next int
	seq  int
}

func NewReporter() *Reporter { return &Reporter{subs: make(map[int]chan Snapshot)} }

func (r *Reporter) Subscribe() (int, <-chan Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	ch := make(chan Snapshot, 1) // room for one pending snapshot
	r.subs[r.next] = ch
	return r.next, ch
}

func (r *Reporter) Unsubscribe(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.subs, id)
}

// Publish offers a snapshot to every subscriber that is ready for it.
func (r *Reporter) Publish(requests int) {
	r.mu.Lock()
	r.seq++
	s := Snapshot{Seq: r.seq, Requests: requests}
	targets := make([]chan Snapshot, 0, len(r.subs))
	for _, ch := range r.subs {
		targets = append(targets, ch)
	}
	r.mu.Unlock()
	for _, ch := range targets {
		select {
		case ch <- s:
			// BUG: no default; a subscriber that is not receiving blocks us
		}
	}
}
