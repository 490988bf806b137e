package race_slice_swap

import "sync"

type ShipperFixed struct {
	mu   sync.Mutex
	buf  []string
	sink *Sink
}

func (s *ShipperFixed) Write(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, line)
}

func (s *ShipperFixed) Flush() {
	s.mu.Lock()
	batch := s.buf
	s.buf = nil
	s.mu.Unlock()
	if len(batch) > 0 {
		s.sink.Ship(batch)
	}
}
