package instrument

import (
	"bytes"
	"go/build/constraint"
	"go/version"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Modules older than go 1.21. A go.mod's go line sets the language version
// of the module's files, and the rewritten files call generic functions of
// the runtime, which need go 1.18. As the go command allows since Go 1.21,
// a //go:build line naming a Go version sets the language version of its
// file (to at least go1.21): each rewritten file of such a module, and each
// file gopct generates in it, gets "&& go1.21" added to its build
// constraint. Nothing changes in meaning: go1.21 still shares loop
// variables between iterations (per-iteration variables begin at go1.22),
// and every change of the language between 1.13 and 1.21 only adds. The
// runtime module declares the main module's go version, since the go
// command wants the main module's go line at least that of every module
// it requires, and its own files get the same constraint.

// minLang is the language version rewritten files need.
const minLang = "go1.21"

// oldLang says whether files of a module with go line v (without "go"; ""
// when the go.mod has none, which means go 1.16) have a language version
// below minLang.
func oldLang(v string) bool {
	return v == "" || version.Compare("go"+v, minLang) < 0
}

// moduleOld says whether package p's module has an old language version.
func moduleOld(p *packages.Package) bool {
	return p.Module != nil && oldLang(p.Module.GoVersion)
}

// runtimeGoLine is the go line of the runtime module for a main module
// with go line v.
func runtimeGoLine(v string) string {
	switch {
	case v == "":
		return "1.16"
	case oldLang(v):
		return v
	}
	return "1.21"
}

// raiseLang returns out, the rewritten text of the file whose source is
// src, with its build constraint raised to require minLang. The file's
// //go:build line, if any, is replaced in place (line numbers do not
// move); otherwise a new one is put first, carrying the file's // +build
// lines, which a //go:build line overrides.
func raiseLang(src, out []byte) []byte {
	expr, line := fileConstraint(src)
	raised := "//go:build " + minLang
	if expr != nil {
		raised = "//go:build " + (&constraint.AndExpr{X: expr, Y: &constraint.TagExpr{Tag: minLang}}).String()
	}
	if line != "" {
		if i := bytes.Index(out, []byte(line)); i >= 0 {
			return append(append(append([]byte{}, out[:i]...), raised...), out[i+len(line):]...)
		}
	}
	return append([]byte(raised+"\n\n"), out...)
}

// fileConstraint returns the build constraint in the header of a Go file
// (the //go:build line, or the // +build lines combined) and the text of
// its //go:build line ("" when it has none).
func fileConstraint(src []byte) (constraint.Expr, string) {
	var plus constraint.Expr
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "package ") || (l != "" && !strings.HasPrefix(l, "//")) {
			break // past the header (a /* */ comment ends the scan: rare, and harmless)
		}
		if constraint.IsGoBuild(l) {
			if x, err := constraint.Parse(l); err == nil {
				return x, l
			}
		}
		if constraint.IsPlusBuild(l) {
			if x, err := constraint.Parse(l); err == nil {
				if plus == nil {
					plus = x
				} else {
					plus = &constraint.AndExpr{X: plus, Y: x}
				}
			}
		}
	}
	return plus, ""
}
