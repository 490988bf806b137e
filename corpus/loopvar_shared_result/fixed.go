package loopvar_shared_result

import (
	"strings"
	"sync"
)

func FetchAllFixed(b *Backend, urls []string) map[string]string {
	sem := make(chan struct{}, 1)
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out = make(map[string]string)
	)
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			body, err := b.Fetch(u) // goroutine-local
			<-sem
			if err != nil {
				return
			}
			body = strings.TrimSpace(body)
			mu.Lock()
			out[u] = body
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}
