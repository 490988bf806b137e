package abba_raft_log

import "sync"

// LogFixed asks for the applied index before taking its own lock.
type LogFixed struct {
	mu        sync.Mutex
	entries   []Entry
	offset    int
	appliedFn func() int
}

func (l *LogFixed) Append(e Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e)
}

func (l *LogFixed) LastIndex() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.offset + len(l.entries)
}

func (l *LogFixed) Compact() {
	applied := l.appliedFn() // node.mu is never held together with l.mu here
	l.mu.Lock()
	defer l.mu.Unlock()
	n := applied - l.offset
	if n > len(l.entries) {
		n = len(l.entries)
	}
	if n > 0 {
		l.entries = l.entries[n:]
		l.offset += n
	}
}

type NodeFixed struct {
	mu      sync.Mutex
	term    int
	applied int
	log     *LogFixed
}

func NewNodeFixed() *NodeFixed {
	n := &NodeFixed{term: 1}
	n.log = &LogFixed{appliedFn: n.Applied}
	return n
}

func (n *NodeFixed) Applied() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.applied
}

func (n *NodeFixed) Propose(data string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	idx := n.log.LastIndex() + 1
	n.log.Append(Entry{Term: n.term, Index: idx, Data: data})
	n.applied = idx
	return idx
}
