package alias

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// The testdata module under testdata/src states expected facts in comments:
//
//	x := new(int)  // alloc: a1        names the allocations on the line (column order)
//	*p = 1         // touches: a1, g   the variables of Q the line's sites may touch
//	sink(p)        // pointsto: a1     the variables the argument of sink may point to
//	v := 0         // alloc: v; touches: v   several annotations, separated by ';'
//
// Globals are named by their Go name; "-" stands for the empty set.

var (
	loadOnce sync.Once
	loadRes  *Result
	loadErr  error
)

func testdataResult(t testing.TB) *Result {
	t.Helper()
	loadOnce.Do(func() {
		dir, _ := filepath.Abs("testdata/src")
		var p *Program
		p, loadErr = Load(LoadConfig{Dir: dir, Patterns: []string{"./..."}, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")})
		if loadErr == nil {
			loadRes, loadErr = Analyze(p, Options{})
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loadRes
}

type annot struct {
	file string // relative to the module root
	line int
	kind string // alloc, touches, pointsto
	args []string
}

func readAnnots(t *testing.T, root string) []annot {
	var out []annot
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			_, c, ok := strings.Cut(sc.Text(), "// ")
			if !ok {
				continue
			}
			for _, part := range strings.Split(c, ";") {
				for _, kind := range []string{"alloc", "touches", "pointsto"} {
					if rest, ok := strings.CutPrefix(strings.TrimSpace(part), kind+":"); ok {
						out = append(out, annot{filepath.ToSlash(rel), line, kind, splitNames(rest)})
					}
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func splitNames(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		if f != "-" {
			out = append(out, f)
		}
	}
	return out
}

// lineOf splits "file:line:col".
func lineOf(pos string) (string, int, int) {
	parts := strings.Split(pos, ":")
	n := len(parts)
	atoi := func(s string) int {
		v := 0
		for _, c := range s {
			v = v*10 + int(c-'0')
		}
		return v
	}
	return strings.Join(parts[:n-2], ":"), atoi(parts[n-2]), atoi(parts[n-1])
}

func TestAnnotations(t *testing.T) {
	r := testdataResult(t)
	annots := readAnnots(t, "testdata/src")
	names := nameVars(t, r, annots)
	display := func(ids []VarID) []string {
		out := make([]string, 0, len(ids))
		for _, id := range ids {
			out = append(out, names[id])
		}
		sort.Strings(out)
		return slices.Compact(out)
	}
	for _, an := range annots {
		var got []string
		switch an.kind {
		case "touches":
			got = display(siteVarsOnLine(r, an.file, an.line))
		case "pointsto":
			got = display(sinkPointsTo(r, an.file, an.line))
		default:
			continue
		}
		want := slices.Clone(an.args)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:%d: %s: got %v, want %v", an.file, an.line, an.kind, got, want)
		}
	}
}

// nameVars gives each variable its test name: globals their Go name
// (qualified by package dir), allocations the name of their alloc annotation.
func nameVars(t *testing.T, r *Result, annots []annot) map[VarID]string {
	names := map[VarID]string{}
	for _, v := range r.Vars {
		if v.Kind == KindGlobal {
			names[v.ID] = v.Name[strings.LastIndex(v.Name, ".")+1:]
		} else {
			names[v.ID] = "alloc@" + v.Pos
		}
	}
	for _, an := range annots {
		if an.kind != "alloc" {
			continue
		}
		var onLine []*Var
		for _, v := range r.Vars {
			if f, l, _ := lineOf(v.Pos); v.Kind == KindAlloc && f == an.file && l == an.line {
				onLine = append(onLine, v)
			}
		}
		sort.Slice(onLine, func(i, j int) bool {
			_, _, ci := lineOf(onLine[i].Pos)
			_, _, cj := lineOf(onLine[j].Pos)
			return ci < cj
		})
		if len(onLine) != len(an.args) {
			t.Errorf("%s:%d: alloc: found %d allocations, annotation names %d", an.file, an.line, len(onLine), len(an.args))
			continue
		}
		for i, v := range onLine {
			names[v.ID] = an.args[i]
		}
	}
	return names
}

func siteVarsOnLine(r *Result, file string, line int) []VarID {
	var out []VarID
	for _, s := range r.Sites {
		if f, l, _ := lineOf(s.Pos); f == file && l == line {
			out = mergeIDs(out, s.Vars)
		}
	}
	return out
}

// sinkPointsTo: the variables the arguments of calls to sink on the line
// may point to (looking through the conversion to any).
func sinkPointsTo(r *Result, file string, line int) []VarID {
	var out []VarID
	for fn := range r.a.reached {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.StaticCallee() == nil || call.Call.StaticCallee().Name() != "sink" {
					continue
				}
				if f, l, _ := lineOf(r.Prog.Position(call.Pos())); f != file || l != line {
					continue
				}
				arg := call.Call.Args[0]
				if mi, ok := arg.(*ssa.MakeInterface); ok {
					arg = mi.X
				}
				out = mergeIDs(out, r.PointsTo(arg))
			}
		}
	}
	return out
}
