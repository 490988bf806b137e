package cta_raft_vote

import (
	"sync"
	"testing"
)

type cluster interface {
	Campaign(term int, cand string) bool
	Leaders(term int) []string
}

func run(t *testing.T, c cluster) {
	var wg sync.WaitGroup
	wg.Add(2)
	for _, cand := range []string{"n1", "n2"} { // both election timers fired
		go func() {
			defer wg.Done()
			c.Campaign(1, cand)
		}()
	}
	wg.Wait()
	if l := c.Leaders(1); len(l) > 1 {
		t.Errorf("two leaders in term 1: %v", l)
	}
}

func TestBug(t *testing.T) { run(t, NewCluster()) }

func TestFixed(t *testing.T) { run(t, NewClusterFixed()) }
