// Package mapwrites writes a map from two goroutines without a lock. Natively
// the runtime may stop the program with "fatal error: concurrent map writes";
// under a controlled scheduler the same bug shows as a lost update of
// counts[w]++, a read-modify-write of the map entry.
package mapwrites

import "sync"

// CountWords counts the words of all documents, one goroutine per document.
func CountWords(docs [][]string) map[string]int {
	counts := map[string]int{}
	var wg sync.WaitGroup
	for _, doc := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range doc {
				counts[w]++ // BUG: concurrent map writes
			}
		}()
	}
	wg.Wait()
	return counts
}
