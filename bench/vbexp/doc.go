// Command vbexp runs the variable- and thread-bounding experiments of
// docs/VBOUND.md (ISSTA'13 Figure 6 and Table 4) on the programs of the
// module in progs/, through package campaign exactly as gopct hunt does,
// and rewrites the marked sections of docs/VBOUND.md with the results:
//
//	go run ./bench/vbexp corner    # Figure 6: hot and cold variable, PCT vs PCTVB
//	go run ./bench/vbexp threads   # Table 4: bugs of known (c, v, t)
//
// Each hunt is one worker with race detection off (the planted bugs are
// data races, which the detector would report in the first execution),
// seeds 1..N; a hunt that does not find the bug within its budget counts
// with the budget (the table says how many did). Times are wall-clock per
// hunt and include PCTVB's profiling runs; executions do not.
package main
