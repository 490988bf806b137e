package instrument

import (
	"go/ast"
	"strconv"
	"strings"
)

// Code that pins its goroutine to a P (runtime.procPin, pulled with
// //go:linkname as sync.Pool does: bytedance/gopkg's per-P counters and its
// syncx.Pool) must not meet a scheduling point before it unpins: gopct would
// park the pinned goroutine, which the Go runtime forbids ("fatal error:
// releasep: invalid p state"), or switch to another goroutine that the
// pinning keeps off that P, and report the race between the two on the P's
// slot (both false: go test passes them). Code that the runtime calls with
// the world stopped (a pool cleanup registered through
// sync.runtime_registerPoolCleanup, syncx's) must not allocate, which every
// scheduling point may. Pinned sections span functions (Pin, then the
// caller's accesses, then Unpin), so the unit left alone is the package: the
// non-test files of a package that pulls one of these runtime functions, and
// of every package that imports one, are compiled as written, like a
// dependency that is not instrumented. Their tests are still instrumented
// and hunted; the package's own code then runs without scheduling points.
var pinLinks = map[string]bool{
	"runtime.procPin":                  true,
	"runtime.procUnpin":                true,
	"sync.runtime_procPin":             true,
	"sync.runtime_procUnpin":           true,
	"sync.runtime_registerPoolCleanup": true,
	"sync.poolCleanup":                 true,
}

// pinningPackages returns the package paths (without "_test") whose
// non-test files are left as written: those that pull a pinLinks function,
// and the packages among us that import one, directly or through others.
func pinningPackages(us []unit) map[string]bool {
	out := map[string]bool{}
	for _, u := range us {
		if pullsPin(u.file) {
			out[strings.TrimSuffix(u.pkg.PkgPath, "_test")] = true
		}
	}
	if len(out) == 0 {
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, u := range us {
			path := strings.TrimSuffix(u.pkg.PkgPath, "_test")
			if out[path] || strings.HasSuffix(u.path, "_test.go") {
				continue
			}
			// The file's own imports: a package whose tests alone use a
			// pinning package keeps its code instrumented.
			for _, spec := range u.file.Imports {
				if imp, err := strconv.Unquote(spec.Path.Value); err == nil && out[imp] {
					out[path], changed = true, true
					break
				}
			}
		}
	}
	return out
}

// pullsPin reports whether f has a //go:linkname directive to a pinLinks
// function.
func pullsPin(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if m := linknameDirective.FindStringSubmatch(c.Text); m != nil && pinLinks[m[2]] {
				return true
			}
		}
	}
	return false
}
