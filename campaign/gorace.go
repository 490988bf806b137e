package campaign

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopct/gopct/instrument"
)

// gopct hunt -gorace builds the test binary with Go's -race as well. Inside a
// controlled execution Go's detector sees gopct's token handoffs as
// synchronisation, so it orders every access of the goroutines gopct
// manages (gopct's own detector, pct/race.go, covers those). What it adds
// are the races it can still see: between goroutines gopct does not manage
// (started by code it does not instrument, e.g. a dependency left out with
// -deps none), which run natively. The worker stops at the first report
// (halt_on_error), and the crash log names the execution that was running,
// so the report comes with the replay token of that execution.

// goRaceExit is the exit status a -race worker ends with after a report.
const goRaceExit = 66

// goRaceEnv returns the GORACE setting of a -race worker: the user's options
// first, except log_path, then ours: reports to stderr (the worker's output,
// where goRaceReport reads them; a user's log_path would send them to a
// file gopct does not read, and the race would go unreported), stop at the
// first report with a status we recognise. Later options override earlier
// ones, so the user cannot undo these either.
func goRaceEnv() string {
	var opts []string
	for _, o := range strings.Fields(os.Getenv("GORACE")) {
		if name, _, _ := strings.Cut(o, "="); name != "log_path" {
			opts = append(opts, o)
		}
	}
	opts = append(opts, "log_path=stderr", "halt_on_error=1", fmt.Sprintf("exitcode=%d", goRaceExit))
	return "GORACE=" + strings.Join(opts, " ")
}

const goRaceBanner = "WARNING: DATA RACE"

// goRaceReport extracts the first report of Go's race detector from a
// worker's output: a one-line message naming the two accesses (operation
// and the first frame of the user's code, file:line), stable from run to
// run (no addresses, no goroutine numbers), and the report itself. ok is
// false when the output holds no report.
func goRaceReport(out, root string) (msg, report string, ok bool) {
	i := strings.Index(out, goRaceBanner)
	if i < 0 {
		return "", "", false
	}
	report = out[i:]
	if j := strings.Index(report, "\n=================="); j >= 0 {
		report = report[:j]
	}
	var accesses []string
	for _, block := range strings.Split(report, "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		head := lines[0]
		if strings.HasPrefix(head, goRaceBanner) && len(lines) > 1 {
			head, lines = lines[1], lines[1:]
		}
		op, _, found := strings.Cut(head, " at 0x")
		if !found {
			continue // "Goroutine N (running) created at:" blocks
		}
		accesses = append(accesses, strings.ToLower(op[:1])+op[1:]+" at "+firstUserFrame(lines[1:], root))
	}
	if len(accesses) == 0 {
		return "", "", false
	}
	return "data race (Go's race detector, -gorace): " + strings.Join(accesses, ", "), report, true
}

// firstUserFrame returns the file:line of the first frame of a race report
// stack (function line, then "\tpath:line +0xNN") outside the runtime and
// gopct's own packages, relative to the module root when inside it.
func firstUserFrame(lines []string, root string) string {
	for i := 0; i+1 < len(lines); i += 2 {
		fn := strings.TrimSpace(lines[i])
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync.") || strings.HasPrefix(fn, instrument.RuntimeModule) ||
			strings.HasPrefix(fn, "internal/") {
			continue
		}
		pos, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
		if rel, err := filepath.Rel(root, pos); err == nil && root != "" && !strings.HasPrefix(rel, "..") {
			pos = filepath.ToSlash(rel)
		}
		return pos
	}
	return "an unknown place"
}
