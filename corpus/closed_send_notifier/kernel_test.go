package closed_send_notifier

import "testing"

type notifier interface {
	Notify(Event) bool
	Close()
	Events() <-chan Event
}

func run(t *testing.T, n notifier) {
	closed := make(chan struct{})
	go func() { // the watcher shuts down
		n.Close()
		close(closed)
	}()
	sent := n.Notify(Event{"config/timeout", 7})
	<-closed
	got := 0
	for range n.Events() {
		got++
	}
	if sent && got != 1 {
		t.Errorf("event sent but %d received", got)
	}
}

func TestBug(t *testing.T) { run(t, NewNotifier()) }

func TestFixed(t *testing.T) { run(t, NewNotifierFixed()) }
