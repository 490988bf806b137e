package fatal_goroutine_hang

import "sync"

type StoreFixed struct {
	mu       sync.Mutex
	data     map[string]string
	onCommit func(key string)
}

func NewStoreFixed(onCommit func(string)) *StoreFixed {
	return &StoreFixed{data: make(map[string]string), onCommit: onCommit}
}

func (s *StoreFixed) Put(k, v string) {
	s.mu.Lock()
	s.data[k] = v
	s.mu.Unlock()
	s.onCommit(k) // after the write is visible
}

func (s *StoreFixed) Get(k string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[k]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}
