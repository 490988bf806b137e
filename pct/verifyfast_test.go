package pct

import (
	"os"
	"strings"
)

// The package's tests run every program with verifyFast on: each access
// that takes the fast bound checks that the conditions it stands for hold
// (stay.go), so that a place that changes one of them without unfast
// fails a test. Benchmarks measure the production path: a benchmark run
// turns it off in this process and, through the environment, in the
// worker processes it starts.
func init() {
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(a, "-test.bench=") && a != "-test.bench=" {
			os.Setenv("GOPCT_NOVERIFY", "1")
		}
	}
	verifyFast = os.Getenv("GOPCT_NOVERIFY") == ""
}
