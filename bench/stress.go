package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Stress testing is what Go developers do today: go test -count N, with and
// without the race detector. A run counts as finding the bug when the test
// fails, panics, dies, deadlocks (the runtime's "all goroutines are asleep"),
// or times out (a blocking bug hangs the test).

const (
	methodStress = "stress"
	methodRace   = "stress-race"
)

func stressPackage(o Options, pkg string, results []*Result) {
	for _, race := range []bool{false, true} {
		method := methodStress
		if race {
			method = methodRace
		}
		bin, cleanup, err := buildPlain(filepath.Join(o.Dir, pkg), race)
		if err != nil {
			for _, r := range results {
				r.Runs[method] = []Run{{Kind: "error: " + firstLine(err.Error())}}
			}
			continue
		}
		for _, r := range results {
			r.Runs[method] = stressSeeds(o, bin, filepath.Join(o.Dir, pkg), r.Case)
			logf(o.Log, "  %s %s %s: %s\n", pkg, r.Case.Test, method, summarize(r.Runs[method], r.Case.Buggy))
		}
		cleanup()
	}
}

func buildPlain(dir string, race bool) (string, func(), error) {
	work, err := os.MkdirTemp("", "gopct-stress-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(work, "t.test")
	args := []string{"test", "-c", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(work)
		return "", nil, fmt.Errorf("%v: %s", err, out)
	}
	return bin, func() { os.RemoveAll(work) }, nil
}

// stressSeeds repeats a stress run o.Seeds times (the OS scheduler is its
// randomness); a correct test is run once.
func stressSeeds(o Options, bin, dir string, c Case) []Run {
	n := o.Seeds
	if !c.Buggy {
		n = 1
	}
	var runs []Run
	for i := 0; i < n; i++ {
		runs = append(runs, stressOnce(o, bin, dir, c.Test))
	}
	return runs
}

// stressOnce runs the test up to o.StressIters times in one process, stops
// at the first failure, and counts the runs.
func stressOnce(o Options, bin, dir, test string) Run {
	budget := o.Budget
	if budget <= 0 {
		budget = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run", "^"+test+"$", "-test.v",
		"-test.count", fmt.Sprint(o.StressIters), "-test.failfast", "-test.timeout", budget.String())
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	run := Run{Seconds: time.Since(start).Seconds(), Execs: strings.Count(out.String(), "=== RUN   "+test+"\n")}
	if err == nil {
		return run
	}
	run.Found = true
	run.Kind = stressKind(out.String())
	if run.Kind == "timeout" && run.Execs > 0 && budgetExhausted(out.String(), test, o.StressIters) {
		run.Found = false // the budget ran out while passing, not a hang
	}
	return run
}

func stressKind(out string) string {
	switch {
	case strings.Contains(out, "WARNING: DATA RACE"):
		return "race"
	case strings.Contains(out, "all goroutines are asleep"):
		return "deadlock"
	case strings.Contains(out, "panic: test timed out"):
		return "timeout"
	case strings.Contains(out, "fatal error:"):
		return "fatal"
	case strings.Contains(out, "panic:"):
		return "panic"
	}
	return "fail"
}

// budgetExhausted tells a timeout during a long sequence of passing runs
// (the stress budget) from a hang: in a hang the last run never ends.
func budgetExhausted(out, test string, iters int) bool {
	runs := strings.Count(out, "=== RUN   "+test+"\n")
	ends := strings.Count(out, "--- PASS: "+test+" ")
	return runs == ends && runs < iters
}
