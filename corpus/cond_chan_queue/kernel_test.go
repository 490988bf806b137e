package cond_chan_queue

import "testing"

func TestBug(t *testing.T) {
	q := NewQueue()
	go q.Consume()
	q.Push("job-1")
	q.Close()
	if len(q.handled) > 1 {
		t.Errorf("handled %v", q.handled)
	}
}

func TestFixed(t *testing.T) {
	q := NewQueueFixed()
	go q.Consume()
	q.Push("job-1")
	q.Close()
	if len(q.handled) > 1 {
		t.Errorf("handled %v", q.handled)
	}
}
