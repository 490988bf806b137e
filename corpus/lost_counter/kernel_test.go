package lost_counter

import (
	"sync"
	"testing"
)

type recorder interface {
	Record(string, int)
	Requests(string) int
}

func run(t *testing.T, q recorder) {
	var wg sync.WaitGroup
	wg.Add(2)
	for _, n := range []int{100, 200} {
		go func() {
			defer wg.Done()
			q.Record("acme", n)
		}()
	}
	wg.Wait()
	if r := q.Requests("acme"); r != 2 {
		t.Errorf("requests = %d, want 2", r)
	}
}

func TestBug(t *testing.T) { run(t, NewQuota(10)) }

func TestFixed(t *testing.T) { run(t, NewQuotaFixed(10)) }
