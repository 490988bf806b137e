// Package loopvar_shared_result: a fan-out fetch declares its scratch
// variables once, outside the loop, and every goroutine's closure captures
// the same ones. Per-iteration loop variables (Go 1.22) do not help: a
// goroutine can store another goroutine's body under its own key.
package loopvar_shared_result

import (
	"strings"
	"sync"
)

type Backend struct {
	pages map[string]string
}

func (b *Backend) Fetch(url string) (string, error) {
	return b.pages[url], nil
}

// FetchAll fetches urls concurrently, at most one backend call at a time.
func FetchAll(b *Backend, urls []string) map[string]string {
	sem := make(chan struct{}, 1)
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		out  = make(map[string]string)
		body string // BUG: shared by all goroutines below
		err  error
	)
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			body, err = b.Fetch(u)
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
