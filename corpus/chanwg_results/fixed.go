package chanwg_results

import (
	"sort"
	"sync"
)

func FetchAllFixed(b *Backend, keys []string) ([]string, error) {
	results := make(chan string, len(keys))
	errs := make(chan error, len(keys)) // every fetcher can report without blocking
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
