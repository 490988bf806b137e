// Package mapfixed is mapwrites with the map guarded by a mutex.
package mapfixed

import "sync"

// CountWords counts the words of all documents, one goroutine per document.
func CountWords(docs [][]string) map[string]int {
	counts := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, doc := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range doc {
				mu.Lock()
				counts[w]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return counts
}
