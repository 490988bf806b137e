package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	os.WriteFile(path, []byte("a\n<!-- x:begin -->\nold\n<!-- x:end -->\nb\n"), 0o644)
	if err := replaceSection(path, "x", "new\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "a\n<!-- x:begin -->\nnew\n<!-- x:end -->\nb\n" {
		t.Errorf("got %q", got)
	}
	if replaceSection(path, "y", "") == nil {
		t.Error("a missing section must be an error")
	}
}
