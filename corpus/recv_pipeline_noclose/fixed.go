package recv_pipeline_noclose

import (
	"context"
	"strings"
)

func ParseFixed(ctx context.Context, in <-chan string) <-chan Record {
	out := make(chan Record)
	go func() {
		defer close(out) // every exit path closes out
		for line := range in {
			k, v, _ := strings.Cut(line, "=")
			select {
			case out <- Record{k, v}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func FirstFixed(lines <-chan string) (Record, int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first Record
	n := 0
	for r := range ParseFixed(ctx, lines) {
		if n == 0 {
			first = r
			cancel()
		}
		n++
	}
	return first, n
}
