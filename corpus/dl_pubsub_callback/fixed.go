package dl_pubsub_callback

import (
	"sync"
	"sync/atomic"
)

// BusFixed runs callbacks on a snapshot of the subscribers, without its lock.
type BusFixed struct {
	mu   sync.Mutex
	subs map[int]func(Event)
	next int
}

func NewBusFixed() *BusFixed { return &BusFixed{subs: make(map[int]func(Event))} }

func (b *BusFixed) Subscribe(fn func(Event)) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	b.subs[b.next] = fn
	return b.next
}

func (b *BusFixed) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *BusFixed) Publish(e Event) {
	b.mu.Lock()
	fns := make([]func(Event), 0, len(b.subs))
	for _, fn := range b.subs {
		fns = append(fns, fn)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn(e)
	}
}

type WatcherFixed struct {
	bus       *BusFixed
	id        int
	cancelled atomic.Bool
	got       []Event
}

func WatchFixed(b *BusFixed) *WatcherFixed {
	w := &WatcherFixed{bus: b}
	w.id = b.Subscribe(w.deliver)
	return w
}

func (w *WatcherFixed) deliver(e Event) {
	if w.cancelled.Load() {
		w.bus.Unsubscribe(w.id)
		return
	}
	w.got = append(w.got, e)
}

func (w *WatcherFixed) Cancel() { w.cancelled.Store(true) }
