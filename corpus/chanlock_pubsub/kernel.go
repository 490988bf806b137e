// Package chanlock_pubsub: a broker delivers messages to subscriber channels
// while holding its mutex (to keep delivery in order). A one-shot subscriber
// unsubscribes, which needs the same mutex, after its first message; a
// publish that already holds the mutex and waits to deliver the next message
// to it never completes.
package chanlock_pubsub

import "sync"

type Broker struct {
	mu   sync.Mutex
	subs map[int]chan string
	next int
}

func NewBroker() *Broker { return &Broker{subs: make(map[int]chan string)} }

func (b *Broker) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	ch := make(chan string)
	b.subs[b.next] = ch
	return b.next, ch
}

func (b *Broker) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *Broker) Publish(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		ch <- msg // BUG: blocking send with b.mu held
	}
}

// WaitFor returns the next message published.
func WaitFor(b *Broker) string {
	id, ch := b.Subscribe()
	msg := <-ch
	b.Unsubscribe(id)
	return msg
}
