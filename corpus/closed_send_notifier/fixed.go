package closed_send_notifier

import "sync"

type NotifierFixed struct {
	mu     sync.Mutex
	closed bool
	ch     chan Event
}

func NewNotifierFixed() *NotifierFixed { return &NotifierFixed{ch: make(chan Event, 8)} }

func (n *NotifierFixed) Notify(e Event) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return false
	}
	select {
	case n.ch <- e: // under the lock: Close cannot run concurrently
		return true
	default: // slow consumer: drop rather than block while holding the lock
		return false
	}
}

func (n *NotifierFixed) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.closed = true
		close(n.ch)
	}
}

func (n *NotifierFixed) Events() <-chan Event { return n.ch }
