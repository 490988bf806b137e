package wg_missing_done

import "testing"

func TestBug(t *testing.T) {
	ix := NewIndexer()
	enqueued := make(chan struct{})
	go func() { // an update arrives from another replica
		ix.Enqueue(Doc{"d1", 2, "edited"})
		close(enqueued)
	}()
	ix.Enqueue(Doc{"d1", 1, "original"})
	<-enqueued
	ix.Flush()
	if d := ix.Get("d1"); d.Version != 2 {
		t.Errorf("d1 = %+v, want version 2", d)
	}
	ix.Close()
}

func TestFixed(t *testing.T) {
	ix := NewIndexerFixed()
	enqueued := make(chan struct{})
	go func() {
		ix.Enqueue(Doc{"d1", 2, "edited"})
		close(enqueued)
	}()
	ix.Enqueue(Doc{"d1", 1, "original"})
	<-enqueued
	ix.Flush()
	if d := ix.Get("d1"); d.Version != 2 {
		t.Errorf("d1 = %+v, want version 2", d)
	}
	ix.Close()
}
