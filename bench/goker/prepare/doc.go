// Command prepare turns the GoKer blocking-bug kernels that Go ships in
// $GOROOT/src/runtime/testdata/testgoroutineleakprofile/goker (GoBench, Yuan
// et al., CGO'21) into a Go module of ordinary tests, at run time, in a
// directory of the caller's choosing; bench/goker/run.sh drives it.
//
// Invariants: the kernels are read from the user's GOROOT and never copied
// into this repository; the only edits are mechanical and the same for every
// kernel: the package is renamed, register and registerInit do nothing, the
// goroutine-leak profile is never written (pprof.Lookup("goroutineleak") is
// nil unless the runtime is built with GOEXPERIMENT=goroutineleakprofile),
// and, with -copies N, the loops at the top of each registered function that
// start the same goroutine more than N times (copies added for native stress
// runs) start it N times. With -native, each test also checks afterwards,
// as goleak does, for goroutines it started that are still blocked after a
// grace period, so that plain `go test -count` can see a leak.
package main
