package pct

import "testing"

// Goroutines doing the same thing are one clause of a deadlock or leak
// message, the first three named (DaisyChain, a Go 1.26 leak test: 1,000
// goroutines blocked at one receive made a 40 KB message).
func TestStuckGroups(t *testing.T) {
	var s stuckGroups
	for id := 1; id <= 1000; id++ {
		s.add(id, "blocked at receive <-ch2")
		if id == 2 {
			s.add(1002, "sleeping at x.go:7:5")
		}
	}
	s.add(1003, "blocked at send c <- 1")
	s.add(1004, "blocked at send c <- 1")
	want := "g1, g2, g3 and 997 more blocked at receive <-ch2; g1002 sleeping at x.go:7:5; g1003, g1004 blocked at send c <- 1"
	if got := s.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
