// Package fatal_goroutine_hang: a key-value store notifies commit watchers
// before it applies the write (an order violation), and the test's reader
// goroutine reports the resulting miss with t.Fatalf. FailNow only ends the
// calling goroutine, so the reader never sends its result and the test
// goroutine waits for it forever: the failure turns into a hang.
package fatal_goroutine_hang

import (
	"errors"
	"sync"
)

var ErrNotFound = errors.New("not found")

type Store struct {
	mu       sync.Mutex
	data     map[string]string
	onCommit func(key string)
}

func NewStore(onCommit func(string)) *Store {
	return &Store{data: make(map[string]string), onCommit: onCommit}
}

func (s *Store) Put(k, v string) {
	s.onCommit(k) // BUG (kernel): watchers are told before the write is applied
	s.mu.Lock()
	s.data[k] = v
	s.mu.Unlock()
}

func (s *Store) Get(k string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[k]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}
