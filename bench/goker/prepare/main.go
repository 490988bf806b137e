package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() {
	src := flag.String("src", "", "the goker directory (default $GOROOT/src/runtime/testdata/testgoroutineleakprofile/goker)")
	out := flag.String("out", "", "directory of the module to write (created)")
	copies := flag.Int("copies", 0, "copies of each kernel's goroutines (0: as shipped)")
	native := flag.Bool("native", false, "add a goleak-style check after each kernel, for go test -count")
	list := flag.Bool("list", false, "print the test names, one a line, and exit")
	funcs := flag.Bool("funcs", false, "print, as JSON, each file's top-level functions and their line ranges, and exit")
	flag.Parse()
	if *funcs {
		if err := printFuncs(*src); err != nil {
			fmt.Fprintln(os.Stderr, "prepare:", err)
			os.Exit(2)
		}
		return
	}
	if err := run(*src, *out, *copies, *native, *list); err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(2)
	}
}

func kernelFiles(src string) ([]string, error) {
	if src == "" {
		src = filepath.Join(goroot(), "src", "runtime", "testdata", "testgoroutineleakprofile", "goker")
	}
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no kernels in %s (Go 1.26 or newer ships them)", src)
	}
	return files, nil
}

func run(src, out string, copies int, native, list bool) error {
	files, err := kernelFiles(src)
	if err != nil {
		return err
	}
	var kernels []string
	rewritten := map[string][]byte{}
	for _, f := range files {
		if filepath.Base(f) == "main.go" {
			continue
		}
		text, names, err := rewrite(f, copies)
		if err != nil {
			return err
		}
		kernels = append(kernels, names...)
		rewritten[filepath.Base(f)] = text
	}
	sort.Strings(kernels)
	if list {
		for _, k := range kernels {
			fmt.Println("Test" + k)
		}
		return nil
	}
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, text := range rewritten {
		if err := os.WriteFile(filepath.Join(out, name), text, 0o644); err != nil {
			return err
		}
	}
	extra := map[string]string{
		"go.mod":          "module goker\n\ngo 1.25\n",
		"register.go":     registerGo,
		"kernels_test.go": testsGo(kernels, native),
	}
	if native {
		extra["leakcheck_test.go"] = leakCheckGo
	}
	for name, text := range extra {
		if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func goroot() string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	return strings.TrimSpace(runOutput("go", "env", "GOROOT"))
}

var registerCall = regexp.MustCompile(`register\("(\w+)", (\w+)\)`)

// rewrite returns the kernel file's text for the test module and the names
// of the functions it registers.
func rewrite(path string, copies int) ([]byte, []string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	raw, _ := os.ReadFile(path)
	var names []string
	for _, m := range registerCall.FindAllStringSubmatch(string(raw), -1) {
		if m[1] != m[2] {
			return nil, nil, fmt.Errorf("%s: register(%q, %s): name and function differ", path, m[1], m[2])
		}
		names = append(names, m[1])
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%s: registers no kernel", path)
	}
	file.Name.Name = "goker"
	profileWrites := 0
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !contains(names, fn.Name.Name) {
			continue
		}
		profileWrites += neutraliseProfile(fn.Body)
		if copies > 0 {
			limitCopies(fn.Body, copies)
		}
	}
	if profileWrites != len(names) {
		return nil, nil, fmt.Errorf("%s: %d leak-profile writes for %d kernels: the file's shape changed", path, profileWrites, len(names))
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), names, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// neutraliseProfile replaces prof.WriteTo(w, debug) by
// writeLeakProfile(prof, w, debug), which does nothing: the profile is nil
// without GOEXPERIMENT=goroutineleakprofile. It returns how many it replaced.
func neutraliseProfile(body *ast.BlockStmt) int {
	n := 0
	ast.Inspect(body, func(node ast.Node) bool {
		call, ok := node.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "WriteTo" {
			return true
		}
		call.Args = append([]ast.Expr{sel.X}, call.Args...)
		call.Fun = ast.NewIdent("writeLeakProfile")
		n++
		return true
	})
	return n
}

// limitCopies lowers the bound of each loop directly in body of the shape
// `for i := 0; i < K; i++ { ... go ... }` (or i <= K) to i < copies when it
// would run more than copies times.
func limitCopies(body *ast.BlockStmt, copies int) {
	for _, stmt := range body.List {
		loop, ok := stmt.(*ast.ForStmt)
		if !ok || !startsGoroutine(loop.Body) {
			continue
		}
		cond, ok := loop.Cond.(*ast.BinaryExpr)
		if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) {
			continue
		}
		lit, ok := cond.Y.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			continue
		}
		k, err := strconv.Atoi(lit.Value)
		if err != nil {
			continue
		}
		if cond.Op == token.LEQ {
			k++
		}
		if k > copies {
			cond.Op = token.LSS
			lit.Value = strconv.Itoa(copies)
		}
	}
}

func startsGoroutine(body *ast.BlockStmt) bool {
	for _, stmt := range body.List {
		if _, ok := stmt.(*ast.GoStmt); ok {
			return true
		}
	}
	return false
}

const registerGo = `package goker

import (
	"io"
	"runtime/pprof"
)

// yieldCount is how often a kernel's deferred function yields before the
// (here never written) leak profile.
const yieldCount = 10

func register(name string, f func()) {}

func registerInit(name string, f func()) {}

func writeLeakProfile(p *pprof.Profile, w io.Writer, debug int) {}
`

func testsGo(kernels []string, native bool) string {
	var b strings.Builder
	b.WriteString("package goker\n\nimport \"testing\"\n")
	for _, k := range kernels {
		if native {
			fmt.Fprintf(&b, "\nfunc Test%s(t *testing.T) {\n\tbefore := goroutineIDs()\n\t%s()\n\tcheckLeaks(t, before)\n}\n", k, k)
		} else {
			fmt.Fprintf(&b, "\nfunc Test%s(t *testing.T) { %s() }\n", k, k)
		}
	}
	return b.String()
}
