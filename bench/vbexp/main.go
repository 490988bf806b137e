package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gopct/gopct/campaign"
	"github.com/gopct/gopct/pct"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/vbexp corner|threads [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	seeds := fs.Int("seeds", 30, "seeds per method and program")
	iters := fs.Int("iters", 20000, "execution budget of one hunt")
	doc := fs.String("doc", "docs/VBOUND.md", "the document whose marked section is rewritten")
	fs.Parse(os.Args[2:])
	var err error
	switch os.Args[1] {
	case "corner":
		err = corner(*seeds, *iters, *doc)
	case "threads":
		err = threads(*seeds, *iters, *doc)
	default:
		err = fmt.Errorf("unknown experiment %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vbexp:", err)
		os.Exit(1)
	}
}

// progs is the module of experiment programs, relative to the repository.
const progs = "bench/vbexp/progs"

// outcome is one hunt.
type outcome struct {
	found   bool
	execs   int // up to and including the failing one, or the budget
	seconds float64
}

// hunter runs hunts on one built package.
type hunter struct {
	bin *campaign.Binary
	dir string
}

func build(pkg string) (*hunter, error) {
	dir, err := filepath.Abs(filepath.Join(progs, pkg))
	if err != nil {
		return nil, err
	}
	bin, err := campaign.Build(dir, ".", nil)
	if err != nil {
		return nil, err
	}
	return &hunter{bin: bin, dir: dir}, nil
}

// hunt runs one campaign of spec on test, as gopct hunt -workers 1
// -race=false would.
func (h *hunter) hunt(test string, spec pct.Spec, seed uint64, iters int) (outcome, error) {
	p := campaign.Plan{Dir: h.dir, Package: ".", Spec: spec, Iters: iters, Seed: seed, Workers: 1,
		Timeout: campaign.DefaultTimeout, Stall: 20 * time.Second, MaxDelay: campaign.DefaultMaxDelay}
	run := h.bin.Hunt
	if spec.Name == "pctvb" {
		run = h.bin.HuntVB
	}
	t0 := time.Now()
	s, err := run(p, test)
	if err != nil {
		return outcome{}, err
	}
	o := outcome{execs: iters, seconds: time.Since(t0).Seconds()}
	if s.Bug != nil {
		o.found, o.execs = true, s.Bug.Execution+1
	}
	return o, nil
}

// stats summarises the hunts of one method on one program.
type stats struct {
	found, runs    int
	execs, seconds float64 // means
}

func (h *hunter) measure(test string, spec pct.Spec, seeds, iters int) (stats, error) {
	var st stats
	for seed := 1; seed <= seeds; seed++ {
		o, err := h.hunt(test, spec, uint64(seed), iters)
		if err != nil {
			return st, fmt.Errorf("%s %v seed %d: %w", test, spec, seed, err)
		}
		st.runs++
		if o.found {
			st.found++
		}
		st.execs += float64(o.execs)
		st.seconds += o.seconds
	}
	st.execs /= float64(st.runs)
	st.seconds /= float64(st.runs)
	fmt.Fprintf(os.Stderr, "%s %v: mean %.1f executions, %.3f s, found %d/%d\n", test, spec, st.execs, st.seconds, st.found, st.runs)
	return st, nil
}

// cell prints a mean, marked as a lower bound when some hunts ran out of
// budget.
func (st stats) cell() string {
	if st.found < st.runs {
		return fmt.Sprintf(">= %.1f (%d/%d found)", st.execs, st.found, st.runs)
	}
	return fmt.Sprintf("%.1f", st.execs)
}
