package campaign

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const suitesTestFile = `package x

import (
	"testing"

	tsuite "github.com/stretchr/testify/suite"
	"example.com/other"
)

type base struct{ tsuite.Suite }

func (b *base) TestShared() {}

type Q struct {
	base
	n int
}

func (q *Q) TestPush()  {}
func (q Q) TestPop()    {}
func (q *Q) SetupTest() {}
func (q *Q) helper()    {}

type G[T any] struct{ tsuite.Suite }

func (g *G[T]) TestGeneric() {}

func TestQ(t *testing.T) { tsuite.Run(t, new(Q)) }

func TestQVar(t *testing.T) {
	s := &Q{n: 1}
	tsuite.Run(t, s)
}

func TestGeneric(t *testing.T) { tsuite.Run(t, &G[int]{}) }

func TestMixed(t *testing.T) {
	t.Run("a", func(t *testing.T) {})
	tsuite.Run(t, new(Q))
}

func TestMade(t *testing.T) { tsuite.Run(t, makeSuite()) }

// Inherited embeds another package's type, whose Test methods the files
// do not show: its test stays whole.
type Inherited struct {
	other.Base
}

func (s *Inherited) TestOwn() {}

func TestInherited(t *testing.T) { tsuite.Run(t, new(Inherited)) }

// ViaPointer embeds testify's Suite through a pointer: no Test methods.
type ViaPointer struct{ *tsuite.Suite }

func (s *ViaPointer) TestP() {}

func TestViaPointer(t *testing.T) { tsuite.Run(t, &ViaPointer{}) }

// Elsewhere is declared in the package's other files: its fields are not
// shown, so its test stays whole.
func (s *Elsewhere) TestE() {}

func TestElsewhere(t *testing.T) { tsuite.Run(t, new(Elsewhere)) }

// Defined is not a struct: a defined type of another package's, whose
// methods are not shown.
type Defined other.Base

func (s *Defined) TestD() {}

func TestDefined(t *testing.T) { tsuite.Run(t, new(Defined)) }

func makeSuite() *Q { return new(Q) }
`

func TestSuiteMethods(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(suitesTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	got := suiteMethods(parseTestFiles(dir, []string{"x_test.go"}))
	want := map[string][]string{
		"TestQ":          {"TestQ/TestPop", "TestQ/TestPush", "TestQ/TestShared"},
		"TestQVar":       {"TestQVar/TestPop", "TestQVar/TestPush", "TestQVar/TestShared"},
		"TestGeneric":    {"TestGeneric/TestGeneric"},
		"TestViaPointer": {"TestViaPointer/TestP"},
		// TestMixed runs another subtest, TestMade a suite of unknown
		// type, TestInherited one with methods of another package: they
		// stay whole.
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("suiteMethods = %v\nwant %v", got, want)
	}
	tests := expandSuites([]string{"TestGeneric", "TestMade", "TestQ"}, got)
	wantTests := []string{"TestGeneric/TestGeneric", "TestMade", "TestQ/TestPop", "TestQ/TestPush", "TestQ/TestShared"}
	if !reflect.DeepEqual(tests, wantTests) {
		t.Errorf("expandSuites = %v, want %v", tests, wantTests)
	}
}

func TestCISelection(t *testing.T) {
	tests := []string{"TestA", "TestQ/TestPop", "TestQ/TestPush", "TestQX/TestPush"}
	for _, c := range []struct {
		run  string
		want []string
		runs []string // the hunts' -run patterns
	}{
		{"", tests, []string{"^TestA$", "^TestQ$/^TestPop$", "^TestQ$/^TestPush$", "^TestQX$/^TestPush$"}},
		{"TestQ$", []string{"TestQ/TestPop", "TestQ/TestPush"}, []string{"^TestQ$/^TestPop$", "^TestQ$/^TestPush$"}},
		{"Q/Push", []string{"TestQ/TestPush", "TestQX/TestPush"}, []string{"^TestQ$/^TestPush$", "^TestQX$/^TestPush$"}},
		{"TestA/sub/deeper", []string{"TestA"}, []string{"^TestA$/sub/deeper"}},
	} {
		sel, err := newCISelection(c.run)
		if err != nil {
			t.Fatal(err)
		}
		got := sel.filter(tests)
		var runs []string
		for _, g := range got {
			runs = append(runs, sel.run(g))
		}
		if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(runs, c.runs) {
			t.Errorf("-run %q: %v %v, want %v %v", c.run, got, runs, c.want, c.runs)
		}
	}
	if _, err := newCISelection("Test("); err == nil {
		t.Error("a bad -run regexp was accepted")
	}
}
