// Package recv_pipeline_noclose: a parse stage of a pipeline returns on
// cancellation without closing its output channel; the downstream range loop
// waits forever.
package recv_pipeline_noclose

import (
	"context"
	"strings"
)

type Record struct {
	Key, Value string
}

func Lines(lines ...string) <-chan string {
	c := make(chan string, len(lines))
	for _, l := range lines {
		c <- l
	}
	close(c)
	return c
}

func Parse(ctx context.Context, in <-chan string) <-chan Record {
	out := make(chan Record)
	go func() {
		for line := range in {
			if ctx.Err() != nil {
				return // BUG: out is never closed on this path
			}
			k, v, _ := strings.Cut(line, "=")
			out <- Record{k, v}
		}
		close(out)
	}()
	return out
}

// First returns the first record and cancels the rest of the pipeline,
// draining what is already in flight.
func First(lines <-chan string) (Record, int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first Record
	n := 0
	for r := range Parse(ctx, lines) {
		if n == 0 {
			first = r
			cancel()
		}
		n++
	}
	return first, n
}
