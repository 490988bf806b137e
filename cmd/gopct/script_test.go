package main

// The command-line tests are testscript scripts (testdata/script/*.txtar).
//
// We use github.com/rogpeppe/go-internal/testscript because it is the
// standard way to test a Go command line end to end (the go command's own
// tests use the same format): each script is a txtar archive that creates a
// small module in a fresh directory, runs the real gopct command as a
// separate process, and asserts its exit status, stdout and stderr.
//
// Commands available to the scripts, besides testscript's built-ins:
//
//	gopct ARGS...              the real command: run(args, stdout, stderr) from main.go
//	wantexit N PROG ARGS...    run PROG, pass its stdout/stderr through, and fail
//	                           unless it exits with status N (testscript's "! exec"
//	                           only checks for a non-zero status, and gopct's
//	                           statuses 1, 2 and 3 mean different things)
//	jsonfield FILE KEY.PATH    print the value at KEY.PATH in the last JSON line of
//	                           FILE (strings unquoted, null as "null")
//	treehash DIR               print every file under DIR (path, mode, size,
//	                           SHA-256 of the contents) and a total hash
//	envfield VAR FILE KEY.PATH (built in, not a process) set $VAR to what jsonfield prints
//	waitfile FILE REGEXP       (built in) wait until FILE matches REGEXP (a point in a
//	                           background command's progress)
//	checkpointsonly FILE       (built in) keep only the checkpoint lines of a results
//	                           file: a campaign killed just before it recorded its summaries
//	tokenedit VAR TOKEN K=JSON...  (built in) set $VAR to TOKEN with the token's JSON
//	                           fields K set to the given values (a tampered token)
//
// Each script's environment gets the Go settings of the environment running
// the tests (GOCACHE, GOMODCACHE, ...), so that its builds use the warm
// caches: testscript sets HOME to a directory that does not exist, which
// would otherwise leave the go command with a cold cache and make every
// build take tens of seconds.

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gopct/gopct/campaign"
)

// TestMain installs the commands the scripts run as separate processes
// (copies of this test binary). testscript.Main is what RunMain became:
// RunMain is deprecated since go-internal v1.12 and only wraps Main.
func TestMain(m *testing.M) {
	testscript.Main(parallelM{m}, map[string]func(){
		"gopct": func() {
			lessGC(1000, 3<<29)
			os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
		},
		"wantexit":  func() { os.Exit(wantExitMain(os.Args[1:])) },
		"jsonfield": func() { os.Exit(jsonFieldMain(os.Args[1:])) },
		"treehash":  func() { os.Exit(treeHashMain(os.Args[1:])) },
	})
}

// scriptParallel is how many scripts (and parallel subtests of the other
// tests) run at a time unless go test's -parallel says otherwise. The
// default, GOMAXPROCS, leaves a 2-core machine half idle: most of a script
// is one process at a time (the instrumenter's analysis is single-threaded,
// a one-worker hunt is one process), so two scripts rarely keep both cores
// busy.
func scriptParallel() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// parallelM raises the test binary's -test.parallel default to
// scriptParallel when the command line does not set it.
type parallelM struct{ m *testing.M }

func (p parallelM) Run() int {
	lessGC(400, 3<<30) // TestExamples and the other tests hunt in this process
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(scriptParallel()))
	}
	return p.m.Run()
}

// lessGC lets the heap grow to percent% over the live heap between
// collections (GOGC=percent) but not past limit bytes, in the test process
// and in the gopct commands the scripts run (not in the test binaries they
// build and run: an execution's GC is the user's). Instrumenting a package
// loads and type-checks every package it imports from source: with the
// default GOGC=100 about 45% of that CPU time is garbage collection (a
// small module's analysis allocates about 600 MB), and most of it goes with
// a higher GOGC.
func lessGC(percent int, limit int64) {
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
}

func TestScripts(t *testing.T) {
	goEnv, err := goSettings()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Vars = append(env.Vars, goEnv...)
			// One build cache for all scripts: a replay reuses the binary
			// its hunt built.
			env.Vars = append(env.Vars, "GOPCT_CACHE="+cache)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"envfield":        envFieldCmd,
			"checkpointsonly": checkpointsOnlyCmd,
			"tokenedit":       tokenEditCmd,
			"waitfile":        waitFileCmd,
		},
	})
}

// goSettings returns NAME=VALUE for the go command's settings that must
// carry over into the scripts. They are read with "go env" rather than
// os.Getenv so that settings from the go env file ($HOME/.config/go/env,
// invisible once HOME changes) carry over too.
func goSettings() ([]string, error) {
	names := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOSUMDB",
		"GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOINSECURE", "GOTOOLCHAIN", "GOROOT"}
	out, err := exec.Command("go", append([]string{"env", "-json"}, names...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	var m map[string]string
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	var vars []string
	for _, n := range names {
		if v := m[n]; v != "" {
			vars = append(vars, n+"="+v)
		}
	}
	// The scripts' modules must not be pulled into a workspace of the
	// environment running the tests.
	return append(vars, "GOWORK=off"), nil
}

// wantExitMain implements "wantexit N PROG ARGS...".
func wantExitMain(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: wantexit N PROG [ARGS...]")
		return 100
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "wantexit: bad status %q\n", args[0])
		return 100
	}
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	got := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		got = exitErr.ExitCode()
	case err != nil:
		fmt.Fprintf(os.Stderr, "wantexit: %v\n", err)
		return 100
	}
	if got != want {
		fmt.Fprintf(os.Stderr, "wantexit: %s exited with status %d, want %d\n", args[1], got, want)
		return 100
	}
	return 0
}

// jsonField returns the value at the dotted path in the last non-empty
// line of the file, which must be a JSON object.
func jsonField(file, path string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	last := lines[len(lines)-1]
	var v any
	if err := json.Unmarshal([]byte(last), &v); err != nil {
		return "", fmt.Errorf("%s: last line is not JSON: %v\n%s", file, err, last)
	}
	for _, key := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return "", fmt.Errorf("%s: %s: %q is not inside an object", file, path, key)
		}
		if v, ok = obj[key]; !ok {
			return "", fmt.Errorf("%s: %s: no key %q", file, path, key)
		}
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case nil:
		return "null", nil
	}
	out, err := json.Marshal(v)
	return string(out), err
}

func jsonFieldMain(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: jsonfield FILE KEY.PATH")
		return 2
	}
	v, err := jsonField(args[0], args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "jsonfield: %v\n", err)
		return 1
	}
	fmt.Println(v)
	return 0
}

func checkpointsOnlyCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: checkpointsonly FILE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var keep []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if strings.Contains(l, `"checkpoint":true`) {
			keep = append(keep, l)
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Join(keep, "")), 0o644))
}

func envFieldCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! envfield")
	}
	if len(args) != 3 {
		ts.Fatalf("usage: envfield VAR FILE KEY.PATH")
	}
	v, err := jsonField(ts.MkAbs(args[1]), args[2])
	ts.Check(err)
	ts.Setenv(args[0], v)
}

// waitFileCmd implements "waitfile FILE REGEXP": it waits (up to two
// minutes) until the file exists and matches, to act on a background
// command at a known point of its progress.
func waitFileCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfile FILE REGEXP")
	}
	re := regexp.MustCompile(args[1])
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && re.Match(data) {
			return
		}
	}
	ts.Fatalf("%s does not match %q after five minutes", args[0], args[1])
}

// treeHash lists every file and directory under dir, one per line (path,
// mode, size, SHA-256 of the contents; symlinks with their target), and
// ends with a hash of the whole listing.
func treeHash(dir string, w io.Writer) error {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("%s %v -> %s", rel, info.Mode(), target))
		case info.IsDir():
			lines = append(lines, fmt.Sprintf("%s/ %v", rel, info.Mode()))
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("%s %v %d %x", rel, info.Mode(), len(data), sha256.Sum256(data)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(lines)
	all := strings.Join(lines, "\n") + "\n"
	_, err = fmt.Fprintf(w, "%stotal %x\n", all, sha256.Sum256([]byte(all)))
	return err
}

func treeHashMain(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: treehash DIR")
		return 2
	}
	if err := treeHash(args[0], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "treehash: %v\n", err)
		return 1
	}
	return 0
}

// tokenEditCmd implements "tokenedit VAR TOKEN K=JSON...": the token's JSON
// form with fields replaced, encoded again (a replay token tampered with).
func tokenEditCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: tokenedit VAR TOKEN K=JSON...")
	}
	tok, err := campaign.DecodeToken(args[1])
	ts.Check(err)
	data, err := json.Marshal(tok)
	ts.Check(err)
	var fields map[string]json.RawMessage
	ts.Check(json.Unmarshal(data, &fields))
	for _, kv := range args[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("tokenedit: %q is not K=JSON", kv)
		}
		fields[k] = json.RawMessage(v)
	}
	data, err = json.Marshal(fields)
	ts.Check(err)
	var edited campaign.Token
	ts.Check(json.Unmarshal(data, &edited))
	ts.Setenv(args[0], edited.Encode())
}
