package results

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopct/gopct/pct"
)

// Past manyGoroutines rows, the table at the end shows three of each kind
// of goroutine and counts the others; -verbose (FullTrace) shows all.
func TestWriteGoroutinesGroupsAlike(t *testing.T) {
	var gs []pct.GInfo
	for i := 1; i <= 100; i++ {
		gs = append(gs, pct.GInfo{ID: fmt.Sprintf("g%d", i), State: "blocked", Waiting: "blocked at receive <-ch2",
			Parent: fmt.Sprintf("g%d", i-1), Created: "x.go:83:3"})
	}
	gs = append(gs, pct.GInfo{ID: "g101", State: "blocked", At: "x.go:77:5", Parent: "g100", Created: "x.go:76:4"})
	var b strings.Builder
	writeGoroutines(&b, gs)
	out := b.String()
	if n := strings.Count(out, "blocked at receive"); n != 3 {
		t.Errorf("%d rows of the chain, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "g101") || !strings.Contains(out, "... and 97 more, each like one above") {
		t.Errorf("missing the odd one out or the count:\n%s", out)
	}
	FullTrace = true
	defer func() { FullTrace = false }()
	b.Reset()
	writeGoroutines(&b, gs)
	if n := strings.Count(b.String(), "blocked at receive"); n != 100 {
		t.Errorf("-verbose: %d rows of the chain, want 100", n)
	}
}
