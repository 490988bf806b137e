package instrument

import (
	"strings"
	"testing"
)

// The user's replace of a module gopct copies gives way to the copy's
// (a module-to-module replace lives in the module cache and is copied:
// two replaces of one module are an error of the go command), and every
// other line of go.mod stays.
func TestDropReplaced(t *testing.T) {
	gomod := `module example.com/x

go 1.24

require (
	go.uber.org/zap v1.27.0
	example.com/local v0.0.0
)

replace go.uber.org/zap => go.uber.org/zap v1.27.0

replace go.uber.org/zap v1.26.0 => example.com/zapfork v1.26.1

replace example.com/local => ./local
`
	mods := []*depModule{
		{path: "go.uber.org/zap", copy: "/cache/deps/zap-1"},
		{path: "example.com/local"}, // overlaid in place: not copied
	}
	out := string(dropReplaced("go.mod", []byte(gomod), mods))
	if strings.Contains(out, "zap =>") || strings.Contains(out, "zapfork") {
		t.Errorf("a replace of the copied module stayed:\n%s", out)
	}
	for _, keep := range []string{"replace example.com/local => ./local", "go.uber.org/zap v1.27.0", "module example.com/x"} {
		if !strings.Contains(out, keep) {
			t.Errorf("lost %q:\n%s", keep, out)
		}
	}
	if got := string(dropReplaced("go.mod", []byte(gomod), mods[1:])); got != gomod {
		t.Errorf("nothing copied, yet go.mod changed:\n%s", got)
	}
}
