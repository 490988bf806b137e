// Package closed_send_notifier: a change notifier checks a closed flag under
// its lock and then sends on the events channel after unlocking. Close can
// close the channel in between: "send on closed channel".
package closed_send_notifier

import "sync"

type Event struct {
	Key string
	Rev int
}

type Notifier struct {
	mu     sync.Mutex
	closed bool
	ch     chan Event
}

func NewNotifier() *Notifier { return &Notifier{ch: make(chan Event, 8)} }

// Notify reports a change; it returns false after Close.
func (n *Notifier) Notify(e Event) bool {
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return false
	}
	n.ch <- e // BUG: the channel may have been closed since the check
	return true
}

func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.closed = true
		close(n.ch)
	}
}

func (n *Notifier) Events() <-chan Event { return n.ch }
