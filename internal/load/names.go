package load

import (
	"fmt"
	"go/token"
	"path/filepath"
)

// Dep is a dependency module whose files get site names too (an
// instrumented dependency, see instrument.Config.Deps).
type Dep struct {
	Path    string // module path
	Version string // "" for a local replacement
	Dir     string // where the go command reads it
}

// Namer names files and positions: the one naming convention of sites and
// allocation variables (see the package invariants).
type Namer struct {
	fset *token.FileSet
	root string
	deps []Dep
}

// NewNamer returns a namer for positions of fset, with file names relative
// to the module root and to the given dependency modules.
func NewNamer(fset *token.FileSet, root string, deps []Dep) *Namer {
	return &Namer{fset: fset, root: root, deps: deps}
}

// Namer returns the namer of the program's main module.
func (p *Program) Namer(deps []Dep) *Namer { return NewNamer(p.Fset, p.Module.Dir, deps) }

// File names a file: module-relative, "module@version/rel" in a
// dependency module, else the path as it is.
func (n *Namer) File(path string) string {
	if Within(n.root, path) {
		rel, _ := filepath.Rel(n.root, path)
		return filepath.ToSlash(rel)
	}
	for _, d := range n.deps {
		if Within(d.Dir, path) {
			rel, _ := filepath.Rel(d.Dir, path)
			name := d.Path
			if d.Version != "" {
				name += "@" + d.Version
			}
			return name + "/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// InModule reports whether the file lies in the main module.
func (n *Namer) InModule(path string) bool { return Within(n.root, path) }

// Pos names a position "file:line:col"; "-" when pos is not valid.
func (n *Namer) Pos(pos token.Pos) string {
	if !pos.IsValid() {
		return "-"
	}
	p := n.fset.PositionFor(pos, false)
	return fmt.Sprintf("%s:%d:%d", n.File(p.Filename), p.Line, p.Column)
}
