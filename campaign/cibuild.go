package campaign

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// ciBuilds are the builds of a CI run, in parallel with its hunts: each
// package is sent on built as soon as its build (and the listing of its
// tests) ends.
type ciBuilds struct {
	built    chan *ciPackage
	received map[*ciPackage]bool // the packages the hunts took (owned by the hunting goroutine)
	mu       sync.Mutex
	over     bool // the run ended: a build that ends now is discarded
}

// startBuilds builds the packages, NumCPU at a time in import-path
// order (the build cache makes a rebuild of unchanged code cheap); no
// build starts past end.
func startBuilds(p CIPlan, pkgs []*ciPackage, end time.Time) *ciBuilds {
	b := &ciBuilds{built: make(chan *ciPackage, len(pkgs)), received: map[*ciPackage]bool{}}
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	go func() {
		for _, pk := range pkgs {
			sem <- struct{}{}
			if time.Now().After(end) || b.isOver() {
				return
			}
			go func() {
				defer func() { <-sem }()
				bin, tests, err := buildAndList(pk.dir, p.Base.Deps)
				b.deliver(pk, bin, tests, err)
			}()
		}
	}()
	return b
}

func buildAndList(dir string, deps []string) (*Binary, []string, error) {
	bin, err := Build(dir, ".", deps)
	if err != nil {
		return nil, nil, err
	}
	tests, err := bin.Tests("")
	if err != nil {
		bin.Close()
		return nil, nil, err
	}
	return bin, tests, nil
}

// deliver hands a finished build to the hunts, or discards it when the
// run has ended.
func (b *ciBuilds) deliver(pk *ciPackage, bin *Binary, tests []string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over {
		if bin != nil {
			bin.Close()
		}
		return
	}
	pk.bin, pk.tests, pk.err = bin, tests, err
	b.built <- pk // buffered for every package: never blocks
}

func (b *ciBuilds) isOver() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

// abandon ends the run's builds: the binaries built but not hunted are
// removed (the hunts remove theirs), and a build still running is
// discarded if it ends before gopct does (its go command is not stopped:
// it ends on its own, soon after).
func (b *ciBuilds) abandon() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.over = true
	for {
		select {
		case pk := <-b.built:
			if pk.bin != nil {
				pk.bin.Close()
			}
		default:
			return
		}
	}
}

// declaredTests lists the top-level test functions the files declare
// (func TestXxx(t *testing.T), as go test finds them): an estimate made
// before the build, to share the budget among tests not built yet and to
// name those the budget left unbuilt. The built binary's list is the
// truth.
func declaredTests(files []*ast.File) []string {
	var tests []string
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && isTestName(fn.Name.Name) &&
				fn.Type.Params != nil && len(fn.Type.Params.List) == 1 {
				tests = append(tests, fn.Name.Name)
			}
		}
	}
	return tests
}

// parseTestFiles parses the files of dir, once for declaredTests and
// suiteMethods; a file that does not parse is left out (the build says why).
func parseTestFiles(dir string, files []string) []*ast.File {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, name := range files {
		if f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution); err == nil {
			parsed = append(parsed, f)
		}
	}
	return parsed
}

// isTestName says whether name is Test or Test followed by a character
// that is not a lower-case letter (go test's rule).
func isTestName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Test")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}
