// Package chanwg_results: a fan-out fetcher waits on its WaitGroup before it
// reads the unbuffered error channel. A fetch that fails (the backend sheds
// load when two requests overlap) blocks on the error send, so Wait never
// returns.
package chanwg_results

import (
	"errors"
	"sort"
	"sync"
	"sync/atomic"
)

var ErrBusy = errors.New("503 backend busy")

// Backend serves one request at a time and sheds the rest.
type Backend struct {
	inflight atomic.Int32
	data     map[string]string
}

func (b *Backend) Get(key string) (string, error) {
	if b.inflight.Add(1) > 1 {
		b.inflight.Add(-1)
		return "", ErrBusy
	}
	v := b.data[key]
	b.inflight.Add(-1)
	return v, nil
}

func FetchAll(b *Backend, keys []string) ([]string, error) {
	results := make(chan string, len(keys))
	errs := make(chan error) // BUG: unbuffered, and only read after wg.Wait
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func(k string) {
			defer wg.Done()
			v, err := b.Get(k)
			if err != nil {
				errs <- err
				return
			}
			results <- v
		}(k)
	}
	wg.Wait()
	close(results)
	select {
	case err := <-errs:
		return nil, err
	default:
	}
	var out []string
	for v := range results {
		out = append(out, v)
	}
	sort.Strings(out)
	return out, nil
}
