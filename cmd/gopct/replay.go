package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/results"
)

func replay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print the outcome as JSON")
	count := fs.Int("count", 1, "replay this many times, each in a fresh process; print how many reproduced")
	fs.Usage = func() { fmt.Fprintf(stderr, "usage: gopct replay [-json] [-count N] TOKEN\n") }
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() != 1 || *count < 1 {
		fs.Usage()
		return 2
	}
	tok, err := campaign.DecodeToken(fs.Arg(0))
	if err != nil {
		return fail(stderr, err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return fail(stderr, err)
	}
	bin, err := campaign.BuildWith(dir, tok.Package, campaign.BuildOptions{Deps: tok.Deps, GoRace: tok.GoRace})
	if err != nil && strings.Contains(err.Error(), "no required module provides package") {
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
		fmt.Fprintf(stdout, "REPLAYED %d times: %d reproduced, %d diverged, %d passed\n",
			*count, tally.reproduced, tally.diverged, tally.passed)
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

// replayTally counts the outcomes of repeated replays.
type replayTally struct{ reproduced, diverged, passed int }

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
