package results

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
)

// JUnit XML, as CI systems read it: a testsuite per package, a testcase
// per test; a bug is a failure whose text carries the report and the
// replay command.

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr,omitempty"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
	seconds  float64
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Output    string        `xml:"system-out,omitempty"`
}

// junitSkipped marks a test that ran no execution (the budget left it
// none): neither a pass nor a failure.
type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the summaries as JUnit XML. replay renders the command
// that reproduces a bug.
func WriteJUnit(w io.Writer, ss []*Summary, replay func(*Bug) string) error {
	byPkg := map[string]*junitSuite{}
	for _, s := range ss {
		suite := byPkg[s.Package]
		if suite == nil {
			suite = &junitSuite{Name: s.Package}
			byPkg[s.Package] = suite
		}
		c := junitCase{Name: s.Test, Classname: s.Package, Time: fmt.Sprintf("%.3f", s.Seconds),
			Output: fmt.Sprintf("%d executions (%d finished), %s, seed %d", s.Executions, s.Finished, s.Spec, s.Seed)}
		if s.Bug != nil {
			var text strings.Builder
			writeBug(&text, s.Bug)
			fmt.Fprintf(&text, "\nreproduce:\n  %s\n", replay(s.Bug))
			c.Failure = &junitFailure{Message: string(s.Bug.Kind) + ": " + firstLine(s.Bug.Message), Type: string(s.Bug.Kind), Text: text.String()}
			suite.Failures++
		} else if s.Executions == 0 {
			c.Skipped = &junitSkipped{Message: "no execution ran within the budget"}
			suite.Skipped++
		}
		suite.Tests++
		suite.seconds += s.Seconds
		suite.Time = fmt.Sprintf("%.3f", suite.seconds)
		suite.Cases = append(suite.Cases, c)
	}
	var out junitSuites
	for _, s := range byPkg {
		out.Suites = append(out.Suites, *s)
	}
	sort.Slice(out.Suites, func(i, j int) bool { return out.Suites[i].Name < out.Suites[j].Name })
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteGitHubAnnotation prints a bug as a GitHub Actions error annotation
// on the line it happened (when the position is known).
func WriteGitHubAnnotation(w io.Writer, s *Summary, replay string) {
	b := s.Bug
	loc := ""
	if file, line, ok := splitPos(b.At); ok {
		loc = fmt.Sprintf(" file=%s,line=%s", file, line)
	}
	msg := fmt.Sprintf("%s in %s: %s. Reproduce: %s", b.Kind, s.Test, firstLine(b.Message), replay)
	fmt.Fprintf(w, "::error%s,title=gopct %s::%s\n", loc, b.Kind, escapeAnnotation(msg))
}

func splitPos(pos string) (file, line string, ok bool) {
	parts := strings.Split(pos, ":")
	if len(parts) < 2 || parts[0] == "" {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// escapeAnnotation escapes a workflow command's message (GitHub's rules:
// %, CR and LF).
func escapeAnnotation(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
