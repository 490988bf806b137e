package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/results"
)

func ci(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ci", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := campaign.CIPlan{Base: campaign.DefaultCIBase()}
	var shard, junit string
	var store campaign.Store
	var jsonOut bool
	var seed int64
	fs.DurationVar(&p.Budget, "budget", 2*time.Minute, "wall-clock budget of the whole run, builds included")
	fs.StringVar(&shard, "shard", "", "run shard i of N (i/N, 0 <= i < N); default $JOB_COMPLETION_INDEX/$GOPCT_SHARDS or 0/1")
	fs.StringVar(&p.Run, "run", "", "only the tests matching this regexp, as go test -run (a testify suite's methods are tests: -run 'TestSuite/TestPush')")
	fs.StringVar(&junit, "junit", "", "write JUnit XML to this file")
	fs.StringVar(&store.Path, "results", "", "append every test's summary (JSON lines) to this file as soon as it is hunted")
	fs.BoolVar(&store.Resume, "resume", false, "with -results: skip the tests the file records (a killed run goes on where it stopped)")
	fs.BoolVar(&jsonOut, "json", false, "print a JSON line per test instead of text")
	fs.Int64Var(&seed, "seed", 1, "base seed; each test's seed derives from it, the package, the test and the shard")
	fs.IntVar(&p.Base.Workers, "workers", runtime.NumCPU(), "parallel test processes per hunt")
	fs.IntVar(&p.Base.Iters, "iters", 0, "executions per test at most (0: as many as the budget allows)")
	shared := huntFlags(fs, &p.Base)
	fs.StringVar(&p.Base.Spec.Name, "strategy", p.Base.Spec.Name, "portfolio (PCT d=3 and the random walk in turn), pct (d=3) or random")
	fs.IntVar(&p.Base.MaxSteps, "max-steps", 0, "steps after which an execution is given up (0: calibrated, as in hunt)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct ci [-budget 2m] [-run regexp] [-shard i/N] [-junit out.xml] [-json] [packages] [-args test-binary-arguments...]\n\n"+
			"Hunts every test of the packages (default ./...) within the budget; exits 1 on any bug.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	var err error
	if p.Shard, p.Shards, err = parseShard(shard); err != nil || p.Budget <= 0 || p.Base.Workers < 1 {
		fmt.Fprintf(stderr, "gopct ci: bad -shard %q (want i/N with 0 <= i < N), or -budget/-workers not positive\n", shard)
		return 2
	}
	switch p.Base.Spec.Name {
	case "portfolio", "pct":
	case "random":
		p.Base.Spec.D = 0
	default:
		fmt.Fprintf(stderr, "gopct ci: unknown strategy %q (want portfolio, pct or random)\n", p.Base.Spec.Name)
		return 2
	}
	if p.Base.MaxSteps < 0 || p.Base.Timeout < 0 || p.Base.MaxDelay < 0 {
		fmt.Fprintf(stderr, "gopct ci: -max-steps, -timeout and -max-delay must not be negative\n")
		return 2
	}
	patterns, testArgs := splitTestArgs(fs.Args())
	shared.apply(&p.Base, testArgs)
	p.Seed, p.Patterns = uint64(seed), patterns
	if len(p.Patterns) == 0 {
		p.Patterns = []string{"./..."}
	}
	if p.Dir, err = os.Getwd(); err != nil {
		return fail(stderr, err)
	}
	if !jsonOut {
		p.Log = stdout
	}
	if store.Resume && store.Path == "" {
		fmt.Fprintf(stderr, "gopct ci: -resume needs -results FILE\n")
		return 2
	}
	if err := store.Open(); err != nil {
		return fail(stderr, err)
	}
	p.Store = &store
	res, err := campaign.RunCI(p)
	if err != nil {
		return fail(stderr, err)
	}
	return reportCI(res, jsonOut, junit, stdout, stderr)
}

// reportCI writes the outputs of a CI run and returns its exit status: 1
// on any bug, 2 when a package could not be hunted, 4 when a test's
// executions mostly did not run to their end (nothing was tested there, as
// for hunt), 0 otherwise. A test the budget left no execution for is
// marked "?" but does not change the status: that depends on the machine's
// speed, and a smoke run must not fail for it.
func reportCI(res *campaign.CIResult, jsonOut bool, junit string, stdout, stderr io.Writer) int {
	code := 0
	for _, s := range res.Summaries {
		if jsonOut {
			json.NewEncoder(stdout).Encode(s)
		}
		if s.Bug != nil {
			code = 1
			if os.Getenv("GITHUB_ACTIONS") == "true" {
				results.WriteGitHubAnnotation(stdout, s, results.ReplayCommand+" "+s.Bug.Replay)
			}
		}
	}
	for _, e := range res.Errors {
		fmt.Fprintf(stderr, "gopct ci: %s\n", e)
	}
	if res.Unbuilt > 0 {
		fmt.Fprintf(stderr, "gopct ci: %d test(s) not run: their packages were still building when the budget ran out\n", res.Unbuilt)
	}
	if junit != "" {
		f, err := os.Create(junit)
		if err != nil {
			return fail(stderr, err)
		}
		results.WriteJUnit(f, res.Summaries, func(b *results.Bug) string { return results.ReplayCommand + " " + b.Replay })
		f.Close()
	}
	if code == 0 && len(res.Errors) > 0 {
		code = 2
	}
	if n := inconclusiveTests(res.Summaries); code == 0 && n > 0 {
		fmt.Fprintf(stderr, "gopct ci: INCONCLUSIVE: in %d test(s) fewer than half the executions ran to their end; nothing was tested there (raise -max-steps, or see the '?' lines)\n", n)
		code = 4
	}
	return code
}

// inconclusiveTests counts the tests whose executions mostly stopped at
// the step limit.
func inconclusiveTests(ss []*results.Summary) int {
	n := 0
	for _, s := range ss {
		if s.Inconclusive() {
			n++
		}
	}
	return n
}

// parseShard reads "i/N"; empty means the Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX with GOPCT_SHARDS shards, or 0/1.
func parseShard(s string) (int, int, error) {
	if s == "" {
		idx, n := os.Getenv("JOB_COMPLETION_INDEX"), os.Getenv("GOPCT_SHARDS")
		if idx == "" || n == "" {
			return 0, 1, nil
		}
		s = idx + "/" + n
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("bad shard %q", s)
	}
	return i, n, nil
}
