package lost_atomic_seq

import (
	"sync"
	"sync/atomic"
)

type LogFixed struct {
	last    atomic.Uint64
	mu      sync.Mutex
	entries map[uint64]Entry
}

func NewLogFixed() *LogFixed { return &LogFixed{entries: make(map[uint64]Entry)} }

func (l *LogFixed) Propose(cmd string) uint64 {
	idx := l.last.Add(1)
	l.mu.Lock()
	l.entries[idx] = Entry{Index: idx, Cmd: cmd}
	l.mu.Unlock()
	return idx
}

func (l *LogFixed) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}
