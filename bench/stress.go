package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// hangAfter is how long one run of a test may take before a stress run
// that reaches its budget counts it as hung (the tests take milliseconds).
const hangAfter = 2 * time.Second

// stressOnce runs the test up to o.StressIters times in one process, stops
// at the first failure, and counts the runs. The process is stopped at the
// budget; it has found a (blocking) bug only if its current run had been
// going for longer than hangAfter, otherwise the budget simply ran out.
func stressOnce(o Options, bin, dir, test string) Run {
	budget := o.Budget
	if budget <= 0 {
		budget = 10 * time.Second
	}
	cmd := exec.Command(bin, "-test.run", "^"+test+"$", "-test.v",
		"-test.count", fmt.Sprint(o.StressIters), "-test.failfast", "-test.timeout", "0")
	cmd.Dir = dir
	var out bytes.Buffer
	w := &runWatcher{test: test, buf: &out}
	cmd.Stdout, cmd.Stderr = w, w
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Run{Kind: "error: " + err.Error()}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	hung, killed := false, false
	select {
	case err = <-done:
	case <-time.After(budget):
		hung = w.runningFor() > hangAfter
		killed = true
		cmd.Process.Kill()
		err = <-done
	}
	run := Run{Seconds: time.Since(start).Seconds(), Execs: w.started()}
	switch {
	case hung:
		run.Found, run.Kind = true, "hang"
	case err != nil && !killed:
		run.Found, run.Kind = true, stressKind(out.String())
	}
	return run
}

// runWatcher follows a test binary's -test.v output: when the current run
// started and how many runs started.
type runWatcher struct {
	mu    sync.Mutex
	test  string
	buf   *bytes.Buffer
	line  []byte
	runs  int
	open  bool
	since time.Time
}

func (w *runWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for _, c := range p {
		if c != '\n' {
			w.line = append(w.line, c)
			continue
		}
		l := string(w.line)
		w.line = w.line[:0]
		switch {
		case l == "=== RUN   "+w.test:
			w.runs++
			w.open, w.since = true, time.Now()
		case strings.HasPrefix(l, "--- PASS: "+w.test+" "), strings.HasPrefix(l, "--- FAIL: "+w.test+" "):
			w.open = false
		}
	}
	return len(p), nil
}

func (w *runWatcher) runningFor() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.open {
		return 0
	}
	return time.Since(w.since)
}

func (w *runWatcher) started() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.runs
}

func stressKind(out string) string {
	switch {
	case strings.Contains(out, "WARNING: DATA RACE"):
		return "race"
	case strings.Contains(out, "all goroutines are asleep"):
		return "deadlock"
	case strings.Contains(out, "fatal error:"):
		return "fatal"
	case strings.Contains(out, "panic:"):
		return "panic"
	}
	return "fail"
}
