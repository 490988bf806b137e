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
	fs.Usage = func() { fmt.Fprintf(stderr, "usage: gopct replay [-json] TOKEN\n") }
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() != 1 {
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
	res, err := bin.Replay(tok)
	if err != nil {
		return fail(stderr, err)
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
