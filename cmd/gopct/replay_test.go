package main

import "testing"

// TestReplayCommandFor: the printed replay command works where it is
// pasted (issue 9, item 12): after `go run ./cmd/gopct hunt ...` at the
// repository's root it is `go run ./cmd/gopct replay`, after go run of a
// released version that version, and otherwise the gopct on PATH.
func TestReplayCommandFor(t *testing.T) {
	goRun := "/tmp/go-build123456/b001/exe/gopct"
	other := t.TempDir()
	for _, c := range []struct {
		exe, cwd, path, version, want string
	}{
		{goRun, "../..", "github.com/gopct/gopct/cmd/gopct", "(devel)", "go run ./cmd/gopct replay"},
		{"/root/.cache/go-build/bc/bcf52a89-d/gopct", "../..", "github.com/gopct/gopct/cmd/gopct", "(devel)", "go run ./cmd/gopct replay"},
		{goRun, other, "github.com/gopct/gopct/cmd/gopct", "v1.2.0", "go run github.com/gopct/gopct/cmd/gopct@v1.2.0 replay"},
		{goRun, other, "github.com/gopct/gopct/cmd/gopct", "(devel)", "gopct replay"},
		{"/home/u/go/bin/gopct", "../..", "github.com/gopct/gopct/cmd/gopct", "(devel)", "gopct replay"},
	} {
		if got := replayCommandFor(c.exe, c.cwd, c.path, c.version); got != c.want {
			t.Errorf("replayCommandFor(%q, %q, %q) = %q, want %q", c.exe, c.cwd, c.version, got, c.want)
		}
	}
}
