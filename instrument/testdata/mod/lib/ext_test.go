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
