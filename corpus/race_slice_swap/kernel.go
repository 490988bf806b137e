// Package race_slice_swap: a log shipper buffers lines and a flusher swaps the
// buffer out without synchronization. A write racing with the swap loses a
// line or ships one twice.
package race_slice_swap

import "sync"

type Sink struct {
	mu    sync.Mutex
	lines []string
}

func (s *Sink) Ship(batch []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, batch...)
}

type Shipper struct {
	buf  []string
	sink *Sink
}

func (s *Shipper) Write(line string) {
	s.buf = append(s.buf, line) // BUG: races with the swap in Flush
}

func (s *Shipper) Flush() {
	batch := s.buf // BUG: read and reset are not atomic with Write
	s.buf = nil
	if len(batch) > 0 {
		s.sink.Ship(batch)
	}
}
