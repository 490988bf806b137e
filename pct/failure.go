package pct

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Failure is what went wrong in an execution.
type Failure struct {
	Kind      string // fail|panic|deadlock|leak|fatal|steplimit
	Message   string
	Site      int
	Step      int
	Goroutine int
	Stack     string
	Where     string // file:line where it happened, when the site does not say
}

// Failure kinds that are not bugs of the program but limits of the
// environment: the command reports them as errors (exit 2), never as bugs.
const (
	kindStuck       = "stuck"
	kindUnsupported = "unsupported"
	kindSkip        = "skip"
)

func envFailure(kind string) bool {
	return kind == kindStuck || kind == kindUnsupported || kind == kindSkip
}

// unsupportedPanic recognises the testing package's refusals inside a
// synctest bubble.
func unsupportedPanic(msg string) bool {
	return strings.HasPrefix(msg, "testing: t.") && strings.HasSuffix(msg, "inside synctest bubble")
}

// fatal reports a Go runtime fatal error (the real program would die) and
// stops the calling goroutine for good.
func (e *execution) fatal(site int, msg string) {
	g := e.holder
	id := -2
	if g != nil {
		id = g.id
	}
	e.fail(&Failure{Kind: "fatal", Message: msg, Site: site, Goroutine: id})
	<-e.abortCh
}

// testFailure records a t.Error/t.Fatal message before calling the real
// method, so the report can quote it.
func testFailure(site int, t testing.TB, method string, args []any) {
	t.Helper()
	if e, g := self(); e != nil {
		e.noteMessage(g, site, method, args)
	}
	switch method {
	case "Error":
		t.Error(args...)
	case "Errorf":
		t.Errorf(args[0].(string), args[1:]...)
	case "Fatal":
		t.Fatal(args...)
	case "Fatalf":
		t.Fatalf(args[0].(string), args[1:]...)
	case "Fail":
		t.Fail()
	case "FailNow":
		t.FailNow()
	}
}

type message struct {
	site, goroutine int
	text            string
}

func (e *execution) noteMessage(g *G, site int, method string, args []any) {
	var text string
	switch method {
	case "Errorf", "Fatalf":
		text = fmt.Sprintf(args[0].(string), args[1:]...)
	case "Fail", "FailNow":
		text = "t." + method + "()"
	default:
		text = fmt.Sprint(args...)
	}
	if len(e.messages) < 16 {
		e.messages = append(e.messages, message{site, g.id, text})
	}
}

// subFilter selects the subtests that run inline (nil: all).
var subFilter *regexp.Regexp

// runSubtest runs subtest f inline when its name matches the filter.
// Subtest names are rewritten like testing does (spaces become '_').
func runSubtest(t *testing.T, name string, f func(*testing.T)) bool {
	if subFilter != nil && !subFilter.MatchString(strings.ReplaceAll(name, " ", "_")) {
		return true
	}
	f(t)
	return !t.Failed()
}
