package dl_pubsub_callback

import "testing"

func TestBug(t *testing.T) {
	b := NewBus()
	w := Watch(b)
	b.Publish(Event{"start"})
	done := make(chan struct{})
	go func() { // the client goes away
		w.Cancel()
		close(done)
	}()
	b.Publish(Event{"update"})
	<-done
	if len(w.got) < 1 || w.got[0].Kind != "start" {
		t.Errorf("watcher got %v", w.got)
	}
}

func TestFixed(t *testing.T) {
	b := NewBusFixed()
	w := WatchFixed(b)
	b.Publish(Event{"start"})
	done := make(chan struct{})
	go func() {
		w.Cancel()
		close(done)
	}()
	b.Publish(Event{"update"})
	<-done
	if len(w.got) < 1 || w.got[0].Kind != "start" {
		t.Errorf("watcher got %v", w.got)
	}
}
