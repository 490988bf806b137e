// Package dl_pubsub_callback: an event bus calls subscriber callbacks while
// holding its mutex; a cancelled watcher unsubscribes itself from inside its
// callback and locks the bus mutex a second time.
package dl_pubsub_callback

import (
	"sync"
	"sync/atomic"
)

type Event struct{ Kind string }

type Bus struct {
	mu   sync.Mutex
	subs map[int]func(Event)
	next int
}

func NewBus() *Bus { return &Bus{subs: make(map[int]func(Event))} }

func (b *Bus) Subscribe(fn func(Event)) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	b.subs[b.next] = fn
	return b.next
}

func (b *Bus) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *Bus) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, fn := range b.subs {
		fn(e) // callbacks run with b.mu held
	}
}

// Watcher collects events until cancelled.
type Watcher struct {
	bus       *Bus
	id        int
	cancelled atomic.Bool
	got       []Event
}

func Watch(b *Bus) *Watcher {
	w := &Watcher{bus: b}
	w.id = b.Subscribe(w.deliver)
	return w
}

func (w *Watcher) deliver(e Event) {
	if w.cancelled.Load() {
		w.bus.Unsubscribe(w.id) // BUG: Publish already holds bus.mu
		return
	}
	w.got = append(w.got, e)
}

// Cancel stops the watcher lazily: it removes itself on the next event.
func (w *Watcher) Cancel() { w.cancelled.Store(true) }
