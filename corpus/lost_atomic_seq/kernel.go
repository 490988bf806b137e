// Package lost_atomic_seq: a raft-like log assigns entry indexes with an
// atomic Load followed by an atomic Store instead of one atomic Add. Each
// operation is atomic but the pair is not: two proposals get the same index.
package lost_atomic_seq

import (
	"sync"
	"sync/atomic"
)

type Entry struct {
	Index uint64
	Cmd   string
}

type Log struct {
	last    atomic.Uint64
	mu      sync.Mutex
	entries map[uint64]Entry
}

func NewLog() *Log { return &Log{entries: make(map[uint64]Entry)} }

func (l *Log) nextIndex() uint64 {
	idx := l.last.Load() + 1 // BUG: Load+Store is not an atomic increment
	l.last.Store(idx)
	return idx
}

func (l *Log) Propose(cmd string) uint64 {
	idx := l.nextIndex()
	l.mu.Lock()
	l.entries[idx] = Entry{Index: idx, Cmd: cmd}
	l.mu.Unlock()
	return idx
}

func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}
