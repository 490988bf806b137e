package chanlock_pubsub

import "sync"

// BrokerFixed delivers without holding its lock; each subscriber has a
// cancel channel so that delivery to a departed subscriber is abandoned.
type subFixed struct {
	ch   chan string
	gone chan struct{}
}

type BrokerFixed struct {
	mu   sync.Mutex
	subs map[int]subFixed
	next int
}

func NewBrokerFixed() *BrokerFixed { return &BrokerFixed{subs: make(map[int]subFixed)} }

func (b *BrokerFixed) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	s := subFixed{ch: make(chan string), gone: make(chan struct{})}
	b.subs[b.next] = s
	return b.next, s.ch
}

func (b *BrokerFixed) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.subs[id]; ok {
		close(s.gone)
		delete(b.subs, id)
	}
}

func (b *BrokerFixed) Publish(msg string) {
	b.mu.Lock()
	targets := make([]subFixed, 0, len(b.subs))
	for _, s := range b.subs {
		targets = append(targets, s)
	}
	b.mu.Unlock()
	for _, s := range targets {
		select {
		case s.ch <- msg:
		case <-s.gone:
		}
	}
}

func WaitForFixed(b *BrokerFixed) string {
	id, ch := b.Subscribe()
	msg := <-ch
	b.Unsubscribe(id)
	return msg
}
