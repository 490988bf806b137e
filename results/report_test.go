package results

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gopct/gopct/pct"
)

func bugAt(e int) *Bug {
	return &Bug{Replay: "gopct1.x", BugReport: pct.BugReport{Kind: "fail", Execution: e}}
}

func TestMergeShards(t *testing.T) {
	base := Summary{Test: "TestA", Package: "p", Spec: pct.Spec{Name: "pct", D: 3}, Seed: 1, Iters: 1000, Chunk: 100, Shards: 3}
	shard := func(i, execs int, bug *Bug) *Summary {
		s := base
		s.Shard, s.Executions, s.Finished, s.Seconds, s.Bug = i, execs, execs, float64(i+1), bug
		return &s
	}
	single := base
	single.Shards, single.Executions = 0, 690
	other := base
	other.Test, other.Shards = "TestB", 0
	ss := Merge([]*Summary{shard(0, 300, nil), &other, shard(1, 250, bugAt(689)), shard(2, 200, bugAt(902)), shard(2, 200, bugAt(902))})
	if len(ss) != 2 || ss[0].Test != "TestA" || ss[1].Test != "TestB" {
		t.Fatalf("merged into %d summaries: %+v", len(ss), ss)
	}
	m := ss[0]
	if m.Executions != 750 || m.Finished != 750 || m.Seconds != 3 || m.Bug.Execution != 689 || m.Shard != 0 || m.Shards != 0 {
		t.Errorf("merged shards: %d executions, %d finished, %.0fs, bug at %d, shard %d/%d", m.Executions, m.Finished, m.Seconds, m.Bug.Execution, m.Shard, m.Shards)
	}
	if Key(m) != Key(&single) {
		t.Errorf("merged key %q differs from a single run's %q", Key(m), Key(&single))
	}
	// The same hunt recorded whole after its shards: the last record stands.
	ss = Merge([]*Summary{shard(0, 300, nil), shard(1, 250, bugAt(689)), &single})
	if len(ss) != 1 || ss[0].Executions != 690 {
		t.Errorf("whole run after shards: %+v", ss)
	}
}

func TestReportTablesAndHTML(t *testing.T) {
	ss := []*Summary{
		{Test: "TestA", Package: "p", Strategy: "pct", Spec: pct.Spec{Name: "pct", D: 3}, Seed: 1, Executions: 21, Finished: 21, Seconds: 0.5, Bug: bugAt(20)},
		{Test: "TestA", Package: "p", Strategy: "random", Spec: pct.Spec{Name: "random"}, Seed: 1, Executions: 300, Finished: 300, Seconds: 3,
			Coverage: []CoveragePoint{{1, 1}, {10, 4}, {300, 9}}},
	}
	var b bytes.Buffer
	if err := WriteReport(&b, ss, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| p | TestA | pct d=3 | 1 | 21 | 21 | fail | 20 |", "| pct d=3 | 1 | 1 | 21 |",
		"| random | 1 | 0 | - |", "| p TestA | 23.810 ms (2.4x) | 10.000 ms (1.0x) |"} {
		if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteHTML(&b, ss, "R"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<svg"); n != 3 {
		t.Errorf("page has %d inline SVG plots, want 3 (first bug, coverage, speed)", n)
	}
	// Self-contained: nothing fetched (XML namespaces are names, not fetches).
	stripped := strings.NewReplacer(`"http://www.w3.org/2000/svg"`, "", `"http://www.w3.org/1999/xlink"`, "").Replace(page)
	for _, bad := range []string{"<script", "http://", "https://", "<link", "url("} {
		if strings.Contains(stripped, bad) {
			t.Errorf("page is not self-contained: it has %q", bad)
		}
	}
	if !strings.Contains(page, "gopct replay gopct1.x") || !strings.Contains(page, "TestA (random)") {
		t.Errorf("page lacks the replay command or the coverage legend")
	}
}
