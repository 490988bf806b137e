package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/gopct/gopct/tbound"
)

// tboundCmd wires `gopct tbound` to package tbound.
func tboundCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tbound", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c tbound.Config
	asJSON := fs.Bool("json", false, "print one JSON object")
	fs.IntVar(&c.N, "n", 0, "goroutines (threads) of the program")
	fs.IntVar(&c.T, "t", 0, "thread bound: the size of the subsets whose orderings must all appear (2..6)")
	fs.IntVar(&c.C, "c", 0, "preemptions: each adds one thread fragment (n+c in all)")
	fs.IntVar(&c.Trials, "trials", 200, "simulated runs")
	fs.IntVar(&c.Sample, "sample", 1000, "subsets checked per run when there are more (then extrapolated to all)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the simulation")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: gopct tbound [-json] -n N -t T [-c C]\n\n"+
			"How many thread-bounded executions cover every ordering of every t of the\n"+
			"n+c thread fragments with probability >= 99% (ISSTA'13 Lemma 4.1), by the\n"+
			"lemma, its proof and a simulation of gopct's permutation generator.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gopct tbound: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if c.Trials < 1 || c.Sample < 1 {
		fmt.Fprintln(stderr, "gopct tbound: -trials and -sample must be at least 1")
		return 2
	}
	r, err := tbound.Compute(c)
	if err != nil {
		fmt.Fprintf(stderr, "gopct tbound: %v\n", err)
		return 2
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(r); err != nil {
			return fail(stderr, err)
		}
		return 0
	}
	r.WriteText(stdout)
	return 0
}
