// Package wg_missing_done: a search indexer counts queued documents in a
// WaitGroup so that Flush can wait for them. The worker skips stale document
// versions with `continue` and forgets to call Done, so Flush waits forever
// whenever two versions of a document are queued out of order.
package wg_missing_done

import "sync"

type Doc struct {
	ID      string
	Version int
	Body    string
}

type Indexer struct {
	q       chan Doc
	pending sync.WaitGroup
	mu      sync.Mutex
	docs    map[string]Doc
	done    chan struct{}
}

func NewIndexer() *Indexer {
	ix := &Indexer{q: make(chan Doc, 16), docs: make(map[string]Doc), done: make(chan struct{})}
	go ix.worker()
	return ix
}

func (ix *Indexer) Enqueue(d Doc) {
	ix.pending.Add(1)
	ix.q <- d
}

func (ix *Indexer) worker() {
	defer close(ix.done)
	for d := range ix.q {
		ix.mu.Lock()
		cur, ok := ix.docs[d.ID]
		if ok && cur.Version >= d.Version {
			ix.mu.Unlock()
			continue // BUG: the stale document is never marked Done
		}
		ix.docs[d.ID] = d
		ix.mu.Unlock()
		ix.pending.Done()
	}
}

// Flush waits until every queued document has been processed.
func (ix *Indexer) Flush() { ix.pending.Wait() }

func (ix *Indexer) Close() {
	close(ix.q)
	<-ix.done
}

func (ix *Indexer) Get(id string) Doc {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.docs[id]
}
