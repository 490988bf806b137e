// Package send_errpath_commit: a batch writer uploads the batch in the
// background while it appends a commit record to its journal. When the
// journal append fails, Commit returns early and the uploader blocks forever
// sending its result.
package send_errpath_commit

import (
	"errors"
	"sync"
)

var ErrClosed = errors.New("writer closed")

type Sink struct {
	mu      sync.Mutex
	batches [][]string
}

func (s *Sink) Write(batch []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches = append(s.batches, batch)
	return nil
}

type Writer struct {
	mu      sync.Mutex
	pending []string
	journal []string
	closed  bool
	sink    *Sink
}

func (w *Writer) Add(rec string) {
	w.mu.Lock()
	w.pending = append(w.pending, rec)
	w.mu.Unlock()
}

func (w *Writer) appendJournal(entry string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.journal = append(w.journal, entry)
	return nil
}

func (w *Writer) takeBatch() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.pending
	w.pending = nil
	return b
}

func (w *Writer) Commit() error {
	batch := w.takeBatch()
	errc := make(chan error) // BUG: unbuffered
	go func() {
		errc <- w.sink.Write(batch)
	}()
	if err := w.appendJournal("commit"); err != nil {
		return err // BUG: the uploader's send has no receiver any more
	}
	return <-errc
}

func (w *Writer) Close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}
