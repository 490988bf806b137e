package campaign

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/gopct/gopct/pct"
	"github.com/gopct/gopct/results"
)

// Token is everything `gopct replay` needs to rerun one execution: the
// package and test, the recorded schedule, and the failure it produced (so
// that a replay that fails differently is reported as diverging).
type Token struct {
	Package   string          `json:"p"`
	Test      string          `json:"t"`
	Schedule  string          `json:"s"`
	Execution int             `json:"e"`
	Kind      pct.FailureKind `json:"k"`
	Message   string          `json:"m"`
	LazyTime  bool            `json:"l,omitempty"`  // hunted with -early-timers=false
	Sub       string          `json:"u,omitempty"`  // subtest filter of -run
	Deps      []string        `json:"d,omitempty"`  // dependency modules instrumented (-deps)
	Spec      pct.Spec        `json:"x,omitempty"`  // the strategy that found it
	MaxSteps  int             `json:"ms,omitempty"` // -max-steps of the hunt (0: calibrated)
	Timeout   int64           `json:"to,omitempty"` // the test's timeout in fake time, ns
	MaxDelay  int64           `json:"md,omitempty"` // the scheduling delay bound, ns
	Epoch     int64           `json:"ep,omitempty"` // unix ns at which the execution's clock started (pct/epoch.go)
	InitLead  int64           `json:"il,omitempty"` // ns from the hunt process's start to Epoch (pct/epoch.go)
	Sites     []int           `json:"as,omitempty"` // active memory sites (variable bounding); nil: all
	Race      bool            `json:"r,omitempty"`  // hunted with race detection
	GoRace    bool            `json:"gr,omitempty"` // built with Go's -race too (-gorace)
	Vars      []string        `json:"v,omitempty"`  // -vars: the variables whose memory sites were scheduling points
	// Seed is the hunt's seed: it seeds the execution's math/rand sources
	// and the strategy of the prior executions.
	Seed uint64 `json:"sd,omitempty"`
	// PriorFirst, PriorStride (the hunt's workers), PriorChunk and
	// PriorDone describe the hunt's worker sequences (pct.Config's First,
	// Workers, Chunk, Done): a replay runs again, with Spec and Seed, the
	// executions the worker of this one ran before it in the same process,
	// so that package state carried between executions is rebuilt.
	// PriorStride 0: none.
	PriorFirst  int     `json:"pf,omitempty"`
	PriorStride int     `json:"ps,omitempty"`
	PriorChunk  int     `json:"pc,omitempty"`
	PriorDone   []int   `json:"pd,omitempty"`
	VarSites    [][]int `json:"vs,omitempty"` // pctvb: the tracked variables' sites, for the prior executions
	// Dir is the package's directory where the hunt ran: replay builds
	// there when the current directory's module does not contain the
	// package (a nested module such as examples/, or another directory).
	Dir string `json:"dir,omitempty"`
	// Loop and Objects: explore -l's heap object naming and the object
	// variables that were tracked (pct.Config's Loop and Objects).
	Loop    int      `json:"lp,omitempty"`
	Objects []string `json:"ob,omitempty"`
	// TestArgs are the test binary's arguments of the hunt (-short, -args).
	TestArgs []string `json:"ta,omitempty"`
}

const tokenPrefix = "gopct1."

// Encode returns the token as one shell-safe word.
func (t Token) Encode() string {
	data, _ := json.Marshal(t)
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(data)
	w.Close()
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// DecodeToken parses a token made by Encode.
func DecodeToken(s string) (Token, error) {
	var t Token
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, tokenPrefix) {
		return t, userErr("not a gopct replay token (it should start with %q)", tokenPrefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s[len(tokenPrefix):])
	if err != nil {
		return t, userErr("corrupt replay token: %v", err)
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return t, userErr("corrupt replay token: %v", err)
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return t, userErr("corrupt replay token: %v", err)
	}
	return t, nil
}

// Replay reruns the token's execution.
func (b *Binary) Replay(t Token) (*results.ReplayResult, error) {
	b.TestArgs = t.TestArgs // the test runs as in the hunt (-short, -args)
	cfg := pctConfigForReplay(t)
	vars, err := b.VarIDs(t.Vars)
	if err != nil {
		return nil, err
	}
	cfg.Vars = vars
	recs, err := b.runWorkers(cfg, nil, runHooks{})
	if err != nil {
		return nil, err
	}
	res := &results.ReplayResult{Test: t.Test, Package: t.Package}
	for _, r := range recs {
		if r.Type != pct.RecDone {
			continue
		}
		res.Diverged = r.Diverged
		if r.Outcome != nil {
			res.Bug = b.bugWith(t, r.Outcome)
		}
	}
	sameFailure := res.Bug != nil && res.Bug.Kind == t.Kind && sameMessage(res.Bug.Message, t.Message)
	switch {
	case res.Diverged != "" && sameFailure:
		res.Drift, res.Diverged = res.Diverged, ""
	case res.Diverged != "" || res.Bug == nil:
		// A pass that followed the schedule to the end: typically the bug
		// has been fixed.
	case !sameFailure:
		res.Diverged = fmt.Sprintf("the run failed with %s: %s; the recording with %s: %s", res.Bug.Kind, res.Bug.Message, t.Kind, t.Message)
	}
	return res, nil
}

// checkReplay replays a reported bug's token in a fresh process, as gopct
// replay would, and says how that went (results.Bug.ReplayCheck).
func (b *Binary) checkReplay(tok Token) string {
	res, err := b.Replay(tok)
	switch {
	case err != nil:
		return "not checked: " + err.Error()
	case res.Diverged != "":
		return "diverged: " + res.Diverged
	case res.Bug == nil:
		return "passed"
	}
	return results.ReplayReproduced
}

// addressRE matches hexadecimal numbers of 6 digits or more, as fmt prints
// pointers (%p, %v of a pointer: 0xc000012345): heap addresses, which differ
// from one process to the next.
var addressRE = regexp.MustCompile(`0x[0-9a-fA-F]{6,}`)

// tempDirRE matches the random part of a directory testing.T.TempDir made
// ($TMPDIR/TestName123456789/001): os.MkdirTemp's decimal suffix, which
// differs from one process to the next.
var tempDirRE = regexp.MustCompile(`(/Test[A-Za-z0-9_]*?)[0-9]{6,}/`)

// goroutineRE matches the runtime's number of a goroutine in a stack dump
// or in go.uber.org/goleak's report ("goroutine 292 [chan send]:",
// "Goroutine 292 in state", "created by ... in goroutine 289"): numbers
// that count the goroutines a process has made, so a replay in a fresh
// process names the same leaked goroutine by another number (reactivex/
// rxgo's Test_Connectable_IterableChannel_Disposed in sweep regr34, whose
// replay check was called diverged).
var goroutineRE = regexp.MustCompile(`\b([Gg]oroutine) [0-9]+\b`)

// sameMessage says whether two failure messages of one execution are the
// same up to what differs between processes: the addresses they print
// (reugn/async's assert.IsNil prints the pointer it got, "0x2043a8b833e4 is
// not nil", so a replay of the recorded schedule failed the same way with
// another address and was called diverged every time) and the names of
// the test's temporary directories, and the runtime's goroutine numbers.
// The same holds for the directories of the files a message names:
// testify's Error Trace prints the test file's absolute path, and a replay
// in another copy of the module (go-pkgz/syncs in sweep fresh29: the hunt's
// copy was gone) failed the same way in another directory.
func sameMessage(a, b string) bool {
	return a == b || normMessage(a) == normMessage(b)
}

// goFileRE matches the directory of an absolute path to a Go file and line.
var goFileRE = regexp.MustCompile(`(?:/[^\s/:]+)+/([^\s/:]+\.go:[0-9]+)`)

func normMessage(m string) string {
	// go-cmp's Diff spaces its report with U+00A0 or U+0020 at random, drawn
	// once per process (from the real clock, at init) so that nobody relies on
	// its output: a replay of sturdyc's TestGetFetchBatchMixOfSynchronous-
	// AndAsynchronousRefreshes failed with the same diff in the other spacing
	// and was called diverged.
	m = strings.ReplaceAll(m, "\u00a0", " ")
	m = tempDirRE.ReplaceAllString(addressRE.ReplaceAllString(m, "0x?"), "${1}?/")
	m = goroutineRE.ReplaceAllString(m, "$1 ?")
	return goFileRE.ReplaceAllString(m, "$1")
}
