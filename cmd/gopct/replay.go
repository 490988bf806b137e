package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/internal/usererr"
	"github.com/gopct/gopct/results"
)

// tokenArg returns the replay token an argument names: the argument
// itself, the contents of FILE for @FILE, or standard input for -.
func tokenArg(arg string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	switch {
	case arg == "-":
		data, err = io.ReadAll(stdin)
	case strings.HasPrefix(arg, "@"):
		data, err = os.ReadFile(arg[1:])
	default:
		return arg, nil
	}
	if err != nil {
		return "", usererr.New(usererr.Other, "reading the replay token: %v", err)
	}
	return strings.TrimSpace(string(data)), nil
}

func replay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print the outcome as JSON")
	count := fs.Int("count", 1, "replay this many times, each in a fresh process; print how many reproduced")
	fs.BoolVar(&results.FullTrace, "verbose", false, "print every context switch of a long trace")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct replay [-json] [-verbose] [-count N] TOKEN | @FILE | -\n"+
			"  @FILE reads the token from FILE, - from standard input (a token longer than\n"+
			"  %d characters does not fit in one command-line argument)\n", results.MaxArgLen)
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() != 1 || *count < 1 {
		fs.Usage()
		return 2
	}
	text, err := tokenArg(fs.Arg(0), os.Stdin)
	if err != nil {
		return fail(stderr, err)
	}
	tok, err := campaign.DecodeToken(text)
	if err != nil {
		return fail(stderr, err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return fail(stderr, err)
	}
	bin, err := buildForReplay(dir, tok)
	if err != nil && notInModule(err) {
		fmt.Fprintf(stderr, "gopct: the token is for package %s, which the module of %s does not contain: run gopct replay inside the module that contains it\n", tok.Package, dir)
		return 2
	}
	if err != nil {
		return fail(stderr, err)
	}
	defer bin.Close()
	res, tally, err := replayTimes(bin, tok, *count)
	if err != nil {
		return fail(stderr, err)
	}
	if *count > 1 {
		fmt.Fprintf(stdout, "REPLAYED %d times: %d reproduced%s, %d diverged, %d passed\n",
			*count, tally.reproduced, tally.byAnotherPath(), tally.diverged, tally.passed)
	}
	if *jsonOut {
		json.NewEncoder(stdout).Encode(res)
	} else {
		results.WriteReplay(stdout, res)
	}
	switch {
	case res.Diverged != "":
		return 3
	case res.Bug != nil:
		return 1
	}
	return 0
}

// replayTally counts the outcomes of repeated replays; drifted counts the
// reproductions that left the recorded schedule on the way.
type replayTally struct{ reproduced, drifted, diverged, passed int }

func (t replayTally) byAnotherPath() string {
	if t.drifted == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d by another path)", t.drifted)
}

// replayTimes replays tok n times (each a fresh process of the same
// binary) and returns the outcome to show: the first divergence, else the
// first pass, else the last reproduction.
func replayTimes(bin *campaign.Binary, tok campaign.Token, n int) (*results.ReplayResult, replayTally, error) {
	var tally replayTally
	var shown *results.ReplayResult
	for range n {
		res, err := bin.Replay(tok)
		if err != nil {
			return nil, tally, err
		}
		switch {
		case res.Diverged != "":
			tally.diverged++
		case res.Bug != nil:
			tally.reproduced++
			if res.Drift != "" {
				tally.drifted++
			}
		default:
			tally.passed++
		}
		reproducedSoFar := shown == nil || (shown.Diverged == "" && shown.Bug != nil)
		if reproducedSoFar || (res.Diverged != "" && shown.Diverged == "") {
			shown = res
		}
	}
	return shown, tally, nil
}

// buildForReplay builds the token's package from dir, or, when dir's
// module does not contain it, from the directory the hunt found it in (if
// it still holds that package): the printed replay command then works
// from wherever it is pasted on the same machine. Inside the hunt's own
// module it builds from the hunt's directory first, as the hunt did, so
// that the binary the hunt built (gopct's build cache) serves the replay.
func buildForReplay(dir string, tok campaign.Token) (*campaign.Binary, error) {
	opts := campaign.BuildOptions{Deps: tok.Deps, GoRace: tok.GoRace}
	if tok.Dir != "" && sameModule(dir, tok.Dir) {
		if bin := buildFromDir(tok, opts); bin != nil {
			return bin, nil
		}
	}
	bin, err := campaign.BuildWith(dir, tok.Package, opts)
	if err == nil || !notInModule(err) || tok.Dir == "" {
		return bin, err
	}
	if bin := buildFromDir(tok, opts); bin != nil {
		return bin, nil
	}
	return nil, err
}

// buildFromDir builds the package in the token's directory, or returns
// nil if that directory no longer holds the token's package or does not
// build.
func buildFromDir(tok campaign.Token, opts campaign.BuildOptions) *campaign.Binary {
	if st, err := os.Stat(tok.Dir); err != nil || !st.IsDir() {
		return nil
	}
	bin, err := campaign.BuildWith(tok.Dir, ".", opts)
	if err != nil {
		return nil
	}
	if bin.Package != tok.Package {
		bin.Close()
		return nil
	}
	return bin
}

// sameModule says whether two directories lie in the same module (the
// nearest go.mod above each is the same file).
func sameModule(a, b string) bool {
	ra, rb := moduleRoot(a), moduleRoot(b)
	return ra != "" && ra == rb
}

func moduleRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// notInModule recognises the go command's errors for a package outside
// the main module.
func notInModule(err error) bool {
	var ue *usererr.Error
	if errors.As(err, &ue) && ue.Reason == usererr.NotInModule {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "no required module provides package") || strings.Contains(msg, "does not contain package")
}

// replayCommand is how the printed replay command starts: "gopct replay",
// unless this process was started by go run (its executable lies in the
// go command's build directories), where gopct may not be on PATH.
func replayCommand() string {
	exe, _ := os.Executable()
	cwd, _ := os.Getwd()
	path, version := "", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		path, version = info.Path, info.Main.Version
	}
	return replayCommandFor(exe, cwd, path, version)
}

// replayCommandFor decides replayCommand from the executable's path, the
// working directory, and the build's package path and module version.
func replayCommandFor(exe, cwd, pkgPath, version string) string {
	// go run links into $TMP/go-buildN/bNNN/exe/, and since Go 1.24 runs
	// the executable from the build cache ($GOCACHE/xx/HASH-d/).
	dir := filepath.ToSlash(filepath.Dir(exe))
	if !strings.Contains(dir, "go-build") || !(strings.HasSuffix(dir, "/exe") || strings.HasSuffix(dir, "-d")) {
		return "gopct replay"
	}
	if _, err := os.Stat(filepath.Join(cwd, "cmd", "gopct", "main.go")); err == nil {
		return "go run ./cmd/gopct replay" // the README's own commands, at the repository's root
	}
	if pkgPath != "" && version != "" && version != "(devel)" {
		return "go run " + pkgPath + "@" + version + " replay"
	}
	return "gopct replay"
}
