package wg_missing_done

import "sync"

type IndexerFixed struct {
	q       chan Doc
	pending sync.WaitGroup
	mu      sync.Mutex
	docs    map[string]Doc
	done    chan struct{}
}

func NewIndexerFixed() *IndexerFixed {
	ix := &IndexerFixed{q: make(chan Doc, 16), docs: make(map[string]Doc), done: make(chan struct{})}
	go ix.worker()
	return ix
}

func (ix *IndexerFixed) Enqueue(d Doc) {
	ix.pending.Add(1)
	ix.q <- d
}

func (ix *IndexerFixed) apply(d Doc) {
	defer ix.pending.Done() // every dequeued document is accounted for
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if cur, ok := ix.docs[d.ID]; ok && cur.Version >= d.Version {
		return
	}
	ix.docs[d.ID] = d
}

func (ix *IndexerFixed) worker() {
	defer close(ix.done)
	for d := range ix.q {
		ix.apply(d)
	}
}

func (ix *IndexerFixed) Flush() { ix.pending.Wait() }

func (ix *IndexerFixed) Close() {
	close(ix.q)
	<-ix.done
}

func (ix *IndexerFixed) Get(id string) Doc {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.docs[id]
}
