package alias

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/olekukonko/tablewriter"
)

// Profiler runs n profiling executions of the tests selected by run in the
// given packages and returns what they observed. cmd/gopct installs one
// (VarsCommand.Profile) once the runtime can profile; until then
// `-profile N` reports that profiling is unavailable.
type Profiler func(p *Program, r *Result, patterns []string, run string, n int) ([]Observation, error)

// VarsCommand implements `gopct vars`.
type VarsCommand struct {
	Profile Profiler   // nil: -profile is unavailable
	Sets    SetLister  // nil: -v is unavailable
	Loop    LoopLister // nil: -l is unavailable
}

// LoopLister prints the heap variables named per allocation index (the
// loop-iteration bound l of explore -l) that n profiling runs of the
// tests selected by run in the packages touched.
type LoopLister func(w io.Writer, patterns []string, run string, n, l int) error

// SetLister prints, for each test selected by run in the packages, the
// variable sets of v variables a PCTVB campaign tries, in order.
type SetLister func(w io.Writer, patterns []string, run string, v int) error

// VarsMain is `gopct vars [-json] [-run RE] [-profile N] [packages]`
// without a profiler.
func VarsMain(args []string, stdout, stderr io.Writer) int {
	return VarsCommand{}.Main(args, stdout, stderr)
}

const varsUsage = `usage: gopct vars [-json] [-run RE] [-profile N [-l L]] [-v V] [packages]

Lists the variables Q of the packages (package-level variables and
allocation sites of the module's code) with their may-access sites, as
computed by gopct's points-to analysis of the tests and everything they call.
`

// Main runs the command and returns its exit code: 0, or 2 for usage,
// build and selection errors.
func (c VarsCommand) Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vars", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, varsUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print one JSON object per variable")
	run := fs.String("run", "", "only what the tests matching `regexp` reach")
	profile := fs.Int("profile", 0, "run the tests `N` times under the profiler and report what they touched")
	sets := fs.Int("v", 0, "also list the sets of `V` variables a PCTVB hunt (gopct hunt -strategy pctvb -v V) tries for each test, in order")
	loop := fs.Int("l", 0, "with -profile N: also list the heap variables by allocation site, call stack and loop-iteration number, the first `L`-1 objects of a site and stack in an execution a variable each (gopct explore -v V -l L)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *loop < 0 || *loop > 16 || (*loop > 0 && *profile <= 0) {
		fmt.Fprintln(stderr, "gopct vars: -l L needs -profile N and 1 <= L <= 16")
		return 2
	}
	opts := Options{}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintf(stderr, "gopct vars: bad -run pattern: %v\n", err)
			return 2
		}
		opts.Run = re
	}
	if *profile > 0 && c.Profile == nil {
		fmt.Fprintln(stderr, "gopct vars: -profile is not available in this build: the runtime cannot profile yet.")
		return 2
	}
	prog, res, err := loadAndAnalyze(fs.Args(), opts)
	if err != nil {
		fmt.Fprintln(stderr, explain(err, fs.Args(), *run))
		return 2
	}
	var observed map[string]Observed
	if *profile > 0 {
		obs, err := c.Profile(prog, res, fs.Args(), *run, *profile)
		if err != nil {
			fmt.Fprintf(stderr, "gopct vars: profiling failed: %v\n", err)
			return 2
		}
		observed = Aggregate(obs)
		for _, m := range res.Check(obs) {
			fmt.Fprintf(stderr, "gopct vars: analysis missed %s at %s (%s)\n", m.Var, m.Site, m.Reason)
		}
	}
	if *asJSON {
		return writeJSON(stdout, stderr, res, observed)
	}
	writeTable(stdout, res, observed)
	if *loop > 0 {
		if c.Loop == nil {
			fmt.Fprintln(stderr, "gopct vars: -l is not available in this build.")
			return 2
		}
		if err := c.Loop(stdout, fs.Args(), *run, *profile, *loop); err != nil {
			fmt.Fprintf(stderr, "gopct vars: profiling with -l: %v\n", err)
			return 2
		}
	}
	if *sets > 0 {
		if c.Sets == nil {
			fmt.Fprintln(stderr, "gopct vars: -v is not available in this build.")
			return 2
		}
		if err := c.Sets(stdout, fs.Args(), *run, *sets); err != nil {
			fmt.Fprintf(stderr, "gopct vars: listing PCTVB's variable sets: %v\n", err)
			return 2
		}
	}
	return 0
}

func loadAndAnalyze(patterns []string, opts Options) (*Program, *Result, error) {
	prog, err := Load(LoadConfig{Patterns: patterns})
	if err != nil {
		return nil, nil, err
	}
	res, err := Analyze(prog, opts)
	return prog, res, err
}

// explain turns an error into the one-paragraph message users see.
func explain(err error, patterns []string, run string) string {
	pkgs := strings.Join(patterns, " ")
	if pkgs == "" {
		pkgs = "."
	}
	var le *LoadError
	switch {
	case errors.Is(err, ErrNoModule):
		dir, _ := os.Getwd()
		return fmt.Sprintf("gopct vars: %s is not inside a Go module (no go.mod found). gopct analyses the packages of a module: run it from the module's directory or a subdirectory.", dir)
	case errors.As(err, &le):
		return fmt.Sprintf("gopct vars: the packages %s do not compile, so they cannot be analysed. Fix these errors first:\n\t%s", pkgs, strings.Join(le.Errors, "\n\t"))
	case errors.Is(err, ErrNoTests):
		return fmt.Sprintf("gopct vars: no test, example or fuzz function in %s matches -run %q (see them with: go test -list . %s).", pkgs, run, pkgs)
	}
	return "gopct vars: " + err.Error()
}

type siteJSON struct {
	Pos    string `json:"pos"`
	Access string `json:"access"`
}

type varJSON struct {
	ID       string     `json:"id"`
	Kind     VarKind    `json:"kind"`
	Pos      string     `json:"pos"`
	Type     string     `json:"type"`
	Sites    []siteJSON `json:"sites"`
	Observed *Observed  `json:"observed"`
}

func writeJSON(stdout, stderr io.Writer, r *Result, observed map[string]Observed) int {
	enc := json.NewEncoder(stdout)
	for _, v := range r.Vars {
		out := varJSON{ID: v.Name, Kind: v.Kind, Pos: v.Pos, Type: v.Type, Sites: []siteJSON{}}
		for _, s := range v.Sites {
			out.Sites = append(out.Sites, siteJSON{s.Pos, s.Access.String()})
		}
		if o, ok := observed[v.Name]; ok {
			out.Observed = &o
		}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "gopct vars: %v\n", err)
			return 2
		}
	}
	return 0
}

func writeTable(w io.Writer, r *Result, observed map[string]Observed) {
	t := tablewriter.NewWriter(w)
	header := []any{"variable", "kind", "type", "pos", "sites", "reads", "writes"}
	if observed != nil {
		header = append(header, "observed k", "goroutines")
	}
	t.Header(header...)
	for _, v := range r.Vars {
		reads, writes := 0, 0
		for _, s := range v.Sites {
			if s.Access == Write {
				writes++
			} else {
				reads++
			}
		}
		row := []any{v.Name, v.Kind, v.Type, v.Pos, len(v.Sites), reads, writes}
		if observed != nil {
			o := observed[v.Name]
			row = append(row, o.Accesses, o.Goroutines)
		}
		t.Append(row...)
	}
	t.Render()
	p := r.Precision()
	fmt.Fprintf(w, "%d variables, %d access sites (%d touch no variable of Q)\n", p.Vars, p.Sites, r.Stats.LocalOnly)
	fmt.Fprintf(w, "precision: points-to %.2f sites/variable, %.2f variables/site; type baseline %.2f sites/variable, %.2f variables/site\n",
		p.SitesPerVar, p.VarsPerSite, p.BaseSitesPerVar, p.BaseVarsPerSite)
}
