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

// t.Cleanup and tb.Cleanup go through the runtime: a subtest's cleanups run
// when it is complete, not with the test's.
func TestCleanups(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		t.Cleanup(func() {})
		cleanupHelper(t)
	})
}

func cleanupHelper(tb testing.TB) { tb.Cleanup(func() {}) }

// t.Name and tb.Name go through the runtime: a subtest is given the test's
// t, and its name is the subtests' path.
func TestNames(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		_ = t.Name()
		nameHelper(t)
	})
}

func nameHelper(tb testing.TB) string { return tb.Name() }
