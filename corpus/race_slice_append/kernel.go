// Package race_slice_append: a tracer collects finished spans by appending to
// a shared slice without synchronization. Two concurrent appends can read the
// same slice header, and one span is lost.
package race_slice_append

import "sync"

type Span struct {
	Name     string
	Duration int
}

type Tracer struct {
	spans []Span
}

func (t *Tracer) Finish(s Span) {
	t.spans = append(t.spans, s) // BUG: unsynchronized read-modify-write of the slice header
}

func (t *Tracer) Spans() []Span { return t.spans }

// Handle serves one request and records its span.
func Handle(t *Tracer, name string, wg *sync.WaitGroup) {
	defer wg.Done()
	t.Finish(Span{Name: name, Duration: len(name)})
}
