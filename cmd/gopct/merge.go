package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func merge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the merged results to this file (default: standard output)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct merge [-o merged.jsonl] results.jsonl...\n\n"+
			"Combines results files (the shards of a campaign) into one: each hunt once, its shards\n"+
			"joined as a single run over all their executions would report it.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	ss, code := readResults(fs.Args(), "merge", stderr)
	if code != 0 {
		return code
	}
	w, tmp := stdout, (*os.File)(nil)
	if *out != "" {
		// Through a temporary file: -o may name one of the inputs.
		f, err := os.CreateTemp(filepath.Dir(*out), ".gopct-merge-")
		if err != nil {
			return fail(stderr, err)
		}
		w, tmp = f, f
	}
	enc := json.NewEncoder(w)
	for _, s := range ss {
		if err := enc.Encode(s); err != nil {
			return fail(stderr, err)
		}
	}
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			return fail(stderr, err)
		}
		if err := os.Rename(tmp.Name(), *out); err != nil {
			return fail(stderr, err)
		}
	}
	return 0
}
