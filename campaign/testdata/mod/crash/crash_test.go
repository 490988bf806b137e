package crash

import (
	"log"
	"sync"
	"testing"
)

// TestLogFatal loses an update in a bad interleaving and then calls
// log.Fatal, which ends the whole process: gopct must still report the
// execution and replay it.
func TestLogFatal(t *testing.T) {
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n++
		}()
	}
	wg.Wait()
	if n != 2 {
		log.Fatalf("lost update: n = %d", n)
	}
}
