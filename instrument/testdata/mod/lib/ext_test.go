package lib_test

import (
	"testing"

	"example.com/mod/lib"
)

func TestUtil(t *testing.T) {
	if n := lib.UseUtil(); n != 4 {
		t.Errorf("counter = %d", n)
	}
}

// extHits is a variable of the external test package.
var extHits int

func TestExtProfile(t *testing.T) {
	done := make(chan bool)
	go func() { extHits++; done <- true }()
	<-done
	if extHits != 1 {
		t.Error("extHits")
	}
}
