package campaign

import (
	"bytes"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gopct/gopct/pct"
)

// testifySuite is the import path of testify's suite package, whose Run
// runs each Test method of a suite as a subtest named after the method.
const testifySuite = "github.com/stretchr/testify/suite"

// suiteMethods maps each top-level test of the files that runs testify
// suites, and nothing else as subtests, to its subtests: the suites'
// methods whose names begin with Test (testify's rule), sorted and
// deduplicated, as "TestSuite/TestMethod". A CI run hunts each method on
// its own, as go test reports them: one execution of a whole suite can
// outlast a test's share of the budget, and would give every method one
// seed and one share. The listing is static (the files' syntax, within
// the package's test files): a suite whose type it cannot resolve (made
// by a function, declared in another package) leaves its test whole.
func suiteMethods(parsed []*ast.File) map[string][]string {
	types := declaredTypes(parsed)
	out := map[string][]string{}
	for _, f := range parsed {
		local := importName(f, testifySuite)
		if local == "" {
			continue
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !isTestName(fn.Name.Name) {
				continue
			}
			if methods := suiteTestMethods(fn, local, f.Name.Name, types); len(methods) > 0 {
				for _, m := range methods {
					out[fn.Name.Name] = append(out[fn.Name.Name], fn.Name.Name+"/"+m)
				}
			}
		}
	}
	return out
}

// suiteType is what the listing knows of a type declared in the files.
type suiteType struct {
	methods  []string // its methods whose names begin with Test
	embedded []string // the types of the package it embeds
	// declared: the files declare the type itself, not only methods of
	// it (a type of the package's other files may embed what they do not
	// show).
	declared bool
	// opaque: it is not a struct, or it embeds a type of another package
	// (other than testify's suite.Suite), whose Test methods, promoted,
	// the files do not show.
	opaque bool
}

// declaredTypes indexes the files' types by package name and type name.
func declaredTypes(files []*ast.File) map[string]*suiteType {
	types := map[string]*suiteType{}
	get := func(pkg, name string) *suiteType {
		key := pkg + "." + name
		if types[key] == nil {
			types[key] = &suiteType{}
		}
		return types[key]
	}
	for _, f := range files {
		pkg, testify := f.Name.Name, importName(f, testifySuite)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				t := get(pkg, n.Name.Name)
				t.declared = true
				st, ok := n.Type.(*ast.StructType)
				t.opaque = t.opaque || !ok
				if ok {
					for _, field := range st.Fields.List {
						if len(field.Names) > 0 {
							continue
						}
						if name := typeName(field.Type); name != "" {
							t.embedded = append(t.embedded, name)
						} else if !isSuiteBase(field.Type, testify) {
							t.opaque = true
						}
					}
				}
			case *ast.FuncDecl:
				if n.Recv != nil && len(n.Recv.List) == 1 && strings.HasPrefix(n.Name.Name, "Test") {
					if name := typeName(n.Recv.List[0].Type); name != "" {
						t := get(pkg, name)
						t.methods = append(t.methods, n.Name.Name)
					}
				}
				return false
			}
			return true
		})
	}
	return types
}

// suiteTestMethods is the Test methods of the suites fn runs with
// local.Run (testify's suite.Run), or nil when fn runs subtests some
// other way too, or runs a suite whose type the files do not show.
func suiteTestMethods(fn *ast.FuncDecl, local, pkg string, types map[string]*suiteType) []string {
	var suites []string
	unknown := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Run" {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != local || len(call.Args) != 2 {
			unknown = true // some other Run: t.Run, or a runner gopct cannot see into
			return true
		}
		name := suiteArgType(fn.Body, call.Args[1])
		if name == "" || types[pkg+"."+name] == nil {
			unknown = true
		}
		suites = append(suites, name)
		return true
	})
	if unknown {
		return nil
	}
	seen := map[string]bool{}
	var methods []string
	for _, s := range suites {
		known := collectMethods(pkg, s, types, map[string]bool{}, func(m string) {
			if !seen[m] {
				seen[m] = true
				methods = append(methods, m)
			}
		})
		if !known {
			return nil
		}
	}
	sort.Strings(methods)
	return methods
}

// collectMethods reports the Test methods of a type and of the types of
// the package it embeds (promoted methods; a name seen twice once). It
// returns false when some of them may be unknown: the type, or a type it
// embeds, is not declared in the files, or embeds another package's type.
func collectMethods(pkg, name string, types map[string]*suiteType, visited map[string]bool, add func(string)) bool {
	t := types[pkg+"."+name]
	if t == nil || !t.declared || t.opaque {
		return false
	}
	if visited[name] {
		return true
	}
	visited[name] = true
	for _, m := range t.methods {
		add(m)
	}
	for _, e := range t.embedded {
		if !collectMethods(pkg, e, types, visited, add) {
			return false
		}
	}
	return true
}

// isSuiteBase says whether an embedded field's type is testify's
// suite.Suite (or a pointer to it), imported as local: it has no Test
// methods.
func isSuiteBase(e ast.Expr, local string) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Suite" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && local != "" && x.Name == local
}

// suiteArgType is the name of the type of a suite argument: new(T), &T{},
// T{}, or a variable of the test's body assigned one of those.
func suiteArgType(body *ast.BlockStmt, arg ast.Expr) string {
	if name := constructedType(arg); name != "" {
		return name
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return ""
	}
	var found string
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if l, ok := lhs.(*ast.Ident); ok && l.Name == id.Name && len(n.Rhs) == len(n.Lhs) {
					if name := constructedType(n.Rhs[i]); name != "" {
						found = name
					}
				}
			}
		case *ast.ValueSpec:
			for i, l := range n.Names {
				if l.Name != id.Name {
					continue
				}
				if i < len(n.Values) {
					found = constructedType(n.Values[i])
				} else if n.Type != nil {
					found = typeName(n.Type)
				}
			}
		}
		return true
	})
	return found
}

// constructedType is T of new(T), &T{...} or T{...}.
func constructedType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return constructedType(e.X)
		}
	case *ast.CompositeLit:
		return typeName(e.Type)
	case *ast.CallExpr:
		if f, ok := e.Fun.(*ast.Ident); ok && f.Name == "new" && len(e.Args) == 1 {
			return typeName(e.Args[0])
		}
	}
	return ""
}

// typeName is the name of a type of this package written as T, *T or
// T[...] ("" for any other type expression).
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	}
	return ""
}

// importName is the name under which the file imports path ("" when it
// does not).
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != path {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name == "_" || imp.Name.Name == "." {
				return ""
			}
			return imp.Name.Name
		}
		return "suite"
	}
	return ""
}

// ExpandSuites replaces each test of the package in dir that runs testify
// suites by their methods ("TestSuite/TestMethod"; see suiteMethods), read
// from the test files the go command compiles (build constraints
// applied). A hunt of a whole package, or of -run TestSuite, hunts each
// method on its own, as gopct ci does. The go command is asked only when a
// test file mentions testify's suite package.
func ExpandSuites(dir string, tests []string) []string {
	if !mentionsSuites(dir) {
		return tests
	}
	cmd := exec.Command("go", "list", "-f", `{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}`, ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return tests // the build listed the tests: the suites stay whole
	}
	return expandSuites(tests, suiteMethods(parseTestFiles(dir, strings.Fields(string(out)))))
}

// mentionsSuites says whether some _test.go file of dir names testify's
// suite package.
func mentionsSuites(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && bytes.Contains(data, []byte(testifySuite)) {
			return true
		}
	}
	return false
}

// ForTest is the plan and top-level test that hunt one test or suite
// method: a method's hunt runs its suite's test with the method's
// -run pattern, and its summaries and checkpoints name the method.
func ForTest(p Plan, test string) (Plan, string) {
	top, _, method := strings.Cut(test, "/")
	if method {
		p.Run, p.Name = exactRun(test), test
	}
	return p, top
}

// expandSuites replaces each test that runs suites by their methods.
func expandSuites(tests []string, suites map[string][]string) []string {
	var out []string
	for _, t := range tests {
		if m := suites[t]; len(m) > 0 {
			out = append(out, m...)
		} else {
			out = append(out, t)
		}
	}
	return out
}

// ciSelection is the tests a CI run's -run pattern selects, as go test
// matches it: level i of the pattern against level i of a name (a test,
// or a suite method "TestSuite/TestMethod"); levels past the name's go
// to its hunt, which filters subtests by them.
type ciSelection struct {
	levels []*regexp.Regexp
	raw    []string
}

func newCISelection(run string) (*ciSelection, error) {
	s := &ciSelection{}
	if run == "" {
		return s, nil
	}
	for _, level := range pct.SplitLevels(run) {
		re, err := regexp.Compile(level)
		if err != nil {
			return nil, userErr("bad -run regexp %q: %v", run, err)
		}
		s.levels = append(s.levels, re)
		s.raw = append(s.raw, level)
	}
	return s, nil
}

// filter keeps the tests the pattern selects.
func (s *ciSelection) filter(tests []string) []string {
	var out []string
	for _, t := range tests {
		if s.selects(t) {
			out = append(out, t)
		}
	}
	return out
}

func (s *ciSelection) selects(test string) bool {
	for i, name := range strings.Split(test, "/") {
		if i < len(s.levels) && !s.levels[i].MatchString(name) {
			return false
		}
	}
	return true
}

// run is the hunt's -run pattern for a selected test: the test exactly,
// then the pattern's deeper levels.
func (s *ciSelection) run(test string) string {
	run := exactRun(test)
	if n := strings.Count(test, "/") + 1; n < len(s.raw) {
		run += "/" + strings.Join(s.raw[n:], "/")
	}
	return run
}
