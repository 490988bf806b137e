package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gopct/gopct/results"
)

func report(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	html := fs.String("html", "", "also write the report as one self-contained HTML page with plots to this file")
	markdown := fs.Bool("md", false, "print the tables as Markdown")
	title := fs.String("title", "gopct report", "title of the HTML page")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gopct report [-html out.html] [-md] results.jsonl...\n\n"+
			"Tables (and with -html a page with plots) of the hunts recorded by -results files;\n"+
			"the shards of a hunt are merged first.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	ss, code := readResults(fs.Args(), "report", stderr)
	if code != 0 {
		return code
	}
	if err := results.WriteReport(stdout, ss, *markdown); err != nil {
		return fail(stderr, err)
	}
	if *html != "" {
		f, err := os.Create(*html)
		if err != nil {
			return fail(stderr, err)
		}
		err = results.WriteHTML(f, ss, *title)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(stderr, err)
		}
	}
	return 0
}

// readResults reads and merges results files, warning about records cut
// short by a killed writer; an unreadable file or none at all is a usage
// error (exit 2).
func readResults(paths []string, cmd string, stderr io.Writer) ([]*results.Summary, int) {
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "gopct %s: no results file given\n", cmd)
		return nil, 2
	}
	var all []*results.Summary
	for _, p := range paths {
		ss, skipped, err := results.Read(p)
		if err != nil {
			fmt.Fprintf(stderr, "gopct %s: %v\n", cmd, err)
			return nil, 2
		}
		if skipped > 0 {
			fmt.Fprintf(stderr, "gopct %s: %s: skipped %d unreadable line(s) (a writer killed mid-line?)\n", cmd, p, skipped)
		}
		all = append(all, ss...)
	}
	return results.Merge(all), 0
}
