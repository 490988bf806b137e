package campaign

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ProgressLine draws a one-line progress display of a hunt on a terminal:
// executions, rate, bugs found so far and the time left (by the budget, or
// by the rate and the executions left). Each update overwrites the line
// (carriage return); Done clears it.
type ProgressLine struct {
	W      io.Writer
	Test   string
	Total  int           // executions planned
	Budget time.Duration // 0: none
	Bugs   int           // bugs found by the run so far
	start  time.Time
}

// Start begins a test's display; its Update is the Plan's Progress hook.
func (p *ProgressLine) Start(test string, total int) {
	p.Test, p.Total, p.start = test, total, time.Now()
}

// Update redraws the line.
func (p *ProgressLine) Update(executed int) {
	el := time.Since(p.start)
	rate := float64(executed) / max(el.Seconds(), 1e-3)
	left := "?"
	switch {
	case p.Budget > 0:
		left = (p.Budget - el).Round(time.Second).String()
	case rate > 0 && p.Total > executed:
		left = time.Duration(float64(p.Total-executed) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.W, "\r\033[K%s: %d/%d executions, %.0f/s, %d bugs, %s left", p.Test, executed, p.Total, rate, p.Bugs, left)
}

// Done clears the line.
func (p *ProgressLine) Done() { fmt.Fprint(p.W, "\r\033[K") }

// IsTerminal says whether f is a terminal (a character device), where a
// progress line that redraws itself is welcome; CI logs are files or pipes.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

// DefaultChunk is the number of executions per chunk (Plan.Chunk): small
// enough that two workers share a 1,000-execution hunt evenly, large
// enough that PCT's learned step count restarting at each costs little
// (one execution in a hundred runs without change points).
const DefaultChunk = 100
