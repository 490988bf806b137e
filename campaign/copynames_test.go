package campaign

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gopct/gopct/pct"
)

// A stack the test binary prints names a copied module's files by the
// copy's directory; the records and output name them by the module's own.
func TestCopyNamesInRecords(t *testing.T) {
	copies := map[string]string{
		"/cache/deps/zap-0123": "/mod/go.uber.org/zap@v1.27.0",
		"/cache/deps/zap-01":   "/mod/other@v1.0.0", // a prefix of the first, not a directory of it
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	line := `{"v":` + strconv.Itoa(pct.SchemaVersion) + `,"type":"bug","bug":{"kind":"panic","message":"boom at /cache/deps/zap-0123/logger.go:12","stack":"/cache/deps/zap-01/x.go:3"}}` + "\n"
	if err := os.WriteFile(out, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := readRecords(out, copyNames(copies))
	if err != nil || len(recs) != 1 || recs[0].Bug == nil {
		t.Fatalf("readRecords: %v, %+v", err, recs)
	}
	if want := "boom at /mod/go.uber.org/zap@v1.27.0/logger.go:12"; recs[0].Bug.Message != want {
		t.Errorf("message %q, want %q", recs[0].Bug.Message, want)
	}
	if want := "/mod/other@v1.0.0/x.go:3"; recs[0].Bug.Stack != want {
		t.Errorf("stack %q, want %q", recs[0].Bug.Stack, want)
	}
	if got := copyNames(nil).Replace("/a/b.go"); got != "/a/b.go" {
		t.Errorf("no copies: %q", got)
	}
}
