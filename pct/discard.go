package pct

import (
	"io"
	"sync"
)

// io.Discard recycles buffers. io.Copy(io.Discard, r) calls Discard's
// ReadFrom, which reads r into 8 KB buffers it takes from, and gives back
// to, a sync.Pool of package io. go test -race orders each reuse (the Put
// happens before the Get that returns the buffer); gopct does not
// instrument package io, so two goroutines draining readers into
// io.Discard wrote into one buffer, through the instrumented Read methods,
// with nothing ordering them: a false race (fasthttp's
// TestPipeConnsCloseWhileReadWriteConcurrent, four goroutines each
// io.Copy(io.Discard, conn), sweep of stop 33). Instrumented code reads
// io.Discard as DiscardAt, a writer that discards the same way from a pool
// whose Get and Put are edges, as the pool calls of other modules are
// (DepPoolGet).

// discardBufs holds DiscardAt's buffers, as io's blackHolePool holds
// io.Discard's.
var discardBufs = sync.Pool{New: func() any {
	b := make([]byte, 8192)
	return &b
}}

// discarder is io.Discard, its buffers' reuse an edge at its site.
type discarder struct{ site int }

// DiscardAt is io.Discard read at site.
func DiscardAt(site int) io.Writer { return discarder{site} }

func (discarder) Write(p []byte) (int, error) { return len(p), nil }

func (discarder) WriteString(s string) (int, error) { return len(s), nil }

// ReadFrom reads r to its end into a pooled buffer, as io.Discard's does.
func (d discarder) ReadFrom(r io.Reader) (n int64, err error) {
	bufp := DepPoolGet(d.site, &discardBufs).(*[]byte)
	defer DepPoolPut(d.site, &discardBufs, bufp)
	for {
		m, err := r.Read(*bufp)
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
