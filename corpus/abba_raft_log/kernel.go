// Package abba_raft_log: a raft-like node and its log have one mutex each.
// Proposals lock node then log; log compaction locks the log and then asks
// the node for its applied index through a callback that locks the node.
package abba_raft_log

import "sync"

type Entry struct {
	Term  int
	Index int
	Data  string
}

type Log struct {
	mu        sync.Mutex
	entries   []Entry
	offset    int // index of entries[0]
	appliedFn func() int
}

func (l *Log) Append(e Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e)
}

func (l *Log) LastIndex() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.offset + len(l.entries)
}

// Compact drops entries that the state machine has applied.
func (l *Log) Compact() {
	l.mu.Lock()
	defer l.mu.Unlock()
	applied := l.appliedFn() // BUG: calls into the node (node.mu) with l.mu held
	n := applied - l.offset
	if n > len(l.entries) {
		n = len(l.entries)
	}
	if n > 0 {
		l.entries = l.entries[n:]
		l.offset += n
	}
}

type Node struct {
	mu      sync.Mutex
	term    int
	applied int
	log     *Log
}

func NewNode() *Node {
	n := &Node{term: 1}
	n.log = &Log{appliedFn: n.Applied}
	return n
}

func (n *Node) Applied() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.applied
}

// Propose appends an entry and applies it (single-node cluster): node.mu, then log.mu.
func (n *Node) Propose(data string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	idx := n.log.LastIndex() + 1
	n.log.Append(Entry{Term: n.term, Index: idx, Data: data})
	n.applied = idx
	return idx
}
