package globals

import "sync"

var (
	Count int
	mu    sync.Mutex
	_     = Count // blank: skipped
	a, b  = 1, "b"
	Empty struct{}
)

var Cache = map[string]int{}

func Use() int {
	mu.Lock()
	defer mu.Unlock()
	Count++
	return Count + a + len(b) + len(Cache)
}
