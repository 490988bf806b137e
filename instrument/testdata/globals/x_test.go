package globals_test

import (
	"testing"

	"github.com/gopct/gopct/instrument/testdata/globals"
)

var external = 2 // a variable of the external test package

func TestExternal(t *testing.T) {
	if globals.Use()+external < 0 {
		t.Fatal("negative")
	}
}
