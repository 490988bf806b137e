package tests

import (
	"testing"
	tt "testing"
)

func TestPlain(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("math")
	}
}

func TestBlank(_ *testing.T) {}

func TestUnnamed(*tt.T) {}

func TestHelperStyle(t *testing.T) { helper(t) }

// Not tests: lower-case suffix, helper, method.
func Testlower(t *testing.T) {}
func helper(t *testing.T)    { t.Helper() }

type S struct{}

func (S) TestMethod(t *testing.T) {}
