package fatal_goroutine_hang

import "testing"

// mustGet is a test helper; like most helpers it fails the test with Fatalf.
func mustGet(t *testing.T, s *Store, k string) string {
	t.Helper()
	v, err := s.Get(k)
	if err != nil {
		t.Fatalf("Get(%q): %v", k, err)
	}
	return v
}

func TestBug(t *testing.T) {
	committed := make(chan string, 1)
	s := NewStore(func(k string) { committed <- k })
	results := make(chan string)
	go func() { // a watcher that reads back what was committed
		k := <-committed
		v := mustGet(t, s, k) // BUG (test): FailNow from a non-test goroutine, through a helper
		results <- v
	}()
	s.Put("leader", "n1")
	if v := <-results; v != "n1" {
		t.Errorf("watcher read %q", v)
	}
}

func TestFixed(t *testing.T) {
	committed := make(chan string, 1)
	s := NewStoreFixed(func(k string) { committed <- k })
	results := make(chan string, 1)
	go func() {
		k := <-committed
		v, err := s.Get(k)
		if err != nil {
			t.Errorf("Get(%q): %v", k, err) // report, and still hand back a result
		}
		results <- v
	}()
	s.Put("leader", "n1")
	if v := <-results; v != "n1" {
		t.Errorf("watcher read %q", v)
	}
}
