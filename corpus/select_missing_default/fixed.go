package select_missing_default

import "sync"

type ReporterFixed struct {
	mu   sync.Mutex
	subs map[int]chan Snapshot
	next int
	seq  int
}

func NewReporterFixed() *ReporterFixed {
	return &ReporterFixed{subs: make(map[int]chan Snapshot)}
}

func (r *ReporterFixed) Subscribe() (int, <-chan Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	ch := make(chan Snapshot, 1) // room for the latest snapshot
	r.subs[r.next] = ch
	return r.next, ch
}

func (r *ReporterFixed) Unsubscribe(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.subs, id)
}

func (r *ReporterFixed) Publish(requests int) {
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
		default: // subscriber busy or gone: drop this snapshot
		}
	}
}
