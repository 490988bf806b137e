package send_errpath_commit

import "sync"

type WriterFixed struct {
	mu      sync.Mutex
	pending []string
	journal []string
	closed  bool
	sink    *Sink
}

func (w *WriterFixed) Add(rec string) {
	w.mu.Lock()
	w.pending = append(w.pending, rec)
	w.mu.Unlock()
}

func (w *WriterFixed) appendJournal(entry string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.journal = append(w.journal, entry)
	return nil
}

func (w *WriterFixed) takeBatch() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.pending
	w.pending = nil
	return b
}

func (w *WriterFixed) Commit() error {
	batch := w.takeBatch()
	errc := make(chan error, 1) // the uploader never blocks
	go func() {
		errc <- w.sink.Write(batch)
	}()
	if err := w.appendJournal("commit"); err != nil {
		<-errc // and we still wait for it, so no upload outlives Commit
		return err
	}
	return <-errc
}

func (w *WriterFixed) Close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}
