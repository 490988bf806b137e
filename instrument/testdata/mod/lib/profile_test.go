package lib

import "testing"

// testHits exists only in the test variant of lib.
var testHits int

func TestProfile(t *testing.T) {
	done := make(chan bool)
	go func() { testHits++; done <- true }()
	<-done
	if got := Profiled(5) + Param(1); got != 25 {
		t.Errorf("Profiled = %d", got)
	}
}
