package globals

import "testing"

var testOnly = 1 // declared only in the test variant of the package

func TestUse(t *testing.T) {
	if Use()+testOnly < 0 {
		t.Fatal("negative")
	}
}
