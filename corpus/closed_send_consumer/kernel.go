// Package closed_send_consumer: an audit-log writer goroutine closes its own
// input channel when a write fails, to "reject further records". The channel
// is closed from the receiving side, so a producer that sends afterwards
// panics with "send on closed channel".
package closed_send_consumer

import (
	"errors"
	"sync"
)

var ErrTooLarge = errors.New("record too large")

type Sink struct {
	mu      sync.Mutex
	MaxSize int
	records []string
}

func (s *Sink) Write(rec string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(rec) > s.MaxSize {
		return ErrTooLarge
	}
	s.records = append(s.records, rec)
	return nil
}

type AuditLog struct {
	in        chan string
	closeOnce sync.Once
	sink      *Sink
	err       error
	done      chan struct{}
}

func NewAuditLog(sink *Sink) *AuditLog {
	a := &AuditLog{in: make(chan string, 4), sink: sink, done: make(chan struct{})}
	go a.run()
	return a
}

func (a *AuditLog) run() {
	defer close(a.done)
	for rec := range a.in {
		if err := a.sink.Write(rec); err != nil {
			a.err = err
			// BUG: the receiver closes the channel producers send on.
			a.closeOnce.Do(func() { close(a.in) })
			return
		}
	}
}

func (a *AuditLog) Log(rec string) { a.in <- rec }

// Close ends the log and returns the first write error.
func (a *AuditLog) Close() error {
	a.closeOnce.Do(func() { close(a.in) })
	<-a.done
	return a.err
}
