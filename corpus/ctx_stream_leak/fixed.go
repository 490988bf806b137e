package ctx_stream_leak

import "context"

func WatchFixed(ctx context.Context, updates []Update) <-chan Update {
	out := make(chan Update)
	go func() {
		defer close(out)
		for _, u := range updates {
			select {
			case out <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
