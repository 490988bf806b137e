package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopct/gopct/pct"
)

func TestStoreSurvivesAKilledWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	if err := Append(path, &Summary{Test: "TestA", Package: "p", Executions: 3}, &Summary{Test: "TestB", Package: "p"}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"test":"TestC","package":"p","execu`) // killed mid-line
	f.Close()
	ss, skipped, err := Read(path)
	if err != nil || len(ss) != 2 || skipped != 1 || ss[0].Executions != 3 || ss[1].Test != "TestB" {
		t.Fatalf("got %d summaries, %d skipped, %v", len(ss), skipped, err)
	}
}

func TestJUnitAndAnnotation(t *testing.T) {
	bug := &Bug{Replay: "gopct1.x", BugReport: pct.BugReport{Kind: pct.FailDeadlock, Message: "deadlock: all goroutines are blocked", At: "p/x.go:12:3"}}
	ss := []*Summary{{Test: "TestA", Package: "example.com/p", Bug: bug}, {Test: "TestB", Package: "example.com/p"}}
	var b bytes.Buffer
	if err := WriteJUnit(&b, ss, func(b *Bug) string { return "gopct replay " + b.Replay }); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`<testsuite name="example.com/p" tests="2" failures="1"`, `<testcase name="TestA"`,
		`<failure message="deadlock: deadlock: all goroutines are blocked" type="deadlock">`, "gopct replay gopct1.x", `<testcase name="TestB"`} {
		if !strings.Contains(out, want) {
			t.Errorf("JUnit lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	WriteGitHubAnnotation(&b, ss[0], "gopct replay gopct1.x")
	if got := b.String(); got != "::error file=p/x.go,line=12,title=gopct deadlock::deadlock in TestA: deadlock: all goroutines are blocked. Reproduce: gopct replay gopct1.x\n" {
		t.Errorf("annotation %q", got)
	}
}
