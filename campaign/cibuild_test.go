package campaign

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// declaredTests finds the tests go test would run, before any build: the
// budget of a CI run is shared among them.
func TestDeclaredTests(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "testing"

func TestA(t *testing.T)          {}
func Test(t *testing.T)           {}
func Test_b(t *testing.T)         {}
func Testify(t *testing.T)        {} // lower case after Test: not a test
func TestTwo(t *testing.T, n int) {} // two parameters: not a test
func BenchmarkC(b *testing.B)     {}
func (x) TestM(t *testing.T)      {} // a method: not a test
`
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := declaredTests(parseTestFiles(dir, []string{"p_test.go", "missing_test.go"}))
	if want := []string{"TestA", "Test", "Test_b"}; !slices.Equal(got, want) {
		t.Errorf("declaredTests = %q, want %q", got, want)
	}
}
