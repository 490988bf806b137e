// Package pct is the runtime that instrumented test code calls: a
// controlled goroutine scheduler, models of Go's synchronisation
// primitives, and the strategies that choose interleavings (PCT, random
// walk, exhaustive context-bounded search with preemptions counted as CHESS
// or as ISSTA'13 counts them, replay).
//
// The instrumenter copies this package (minus tests and source.go) into a
// module of its own, gopct.invalid/rt, compiled into the user's test
// binary; it must therefore depend on the standard library only, and
// compile with go 1.21 language features.
//
// # Execution model
//
// Every execution of a test body runs inside a testing/synctest bubble. A
// token is passed between managed goroutines so that exactly one runs user
// code at a time. At each scheduling point (every instrumented operation)
// the token holder asks the Strategy which goroutine runs next; a switch
// wakes the chosen goroutine's wake channel and parks the holder on its own.
// Every choice goes through one function, execution.decide, which builds a
// Decision (the runnable goroutines, the current one, whether time may pass,
// and the access at hand) for the strategy; strategies are configured by a
// serialisable Spec.
//
// The program's operations (spawn, exit, block, wake, acquire, release,
// channel operations, atomics, memory reads and writes, time passing) are
// reported to Observers as Events, in the order they take effect; the
// scheduler's own handoffs are not events. With Config.Coverage an observer
// hashes each execution's happens-before graph (hbhash.go) for the
// coverage curve. Records exchanged with the tool
// (Config, Record, BugReport) are defined in schema.go, versioned.
//
// Channel operations and sleeps run for real: they are first tried without
// blocking; a goroutine that would block hands the token on and blocks in
// the real operation. Because a goroutine woken by a real operation runs
// concurrently with the holder until it re-parks, the holder calls
// synctest.Wait ("settles") before any decision that follows an operation
// that may have woken one, and merges the woken goroutines in id order. The
// enabled set is therefore identical in every run with the same decisions.
//
// Mutexes, RWMutexes (with Go's writer preference), WaitGroups, Once and
// Cond are modelled: a goroutine that would block is disabled and parked on
// its wake channel, which the bubble sees as durably blocked. Deadlocks and
// leaks are then reported by the bubble itself ("all goroutines are
// blocked"), and classified by whether the test function had returned.
// Lock, Unlock, RLock and RUnlock called through an interface reach the
// same models when the value's method is a standard mutex's, its own or
// promoted through embedded fields: lockers.go finds that mutex from the
// dynamic type.
//
// Memory accesses can be gated (gate.go): with Config.Vars or Config.Sites
// only the memory sites that may touch the chosen variables of Q (by the
// site→variable table the instrumenter generates from the alias analysis,
// RegisterSiteVars) are scheduling points. Synchronisation operations are
// never gated; a site the table does not know stays a scheduling point.
//
// Time passing is a choice: when a timer created through instrumented code
// is pending, the strategy may answer PassTime; everyone parks, the fake
// clock jumps to the next deadline, and a clock goroutine (time.AfterFunc)
// decides next.
//
// # Invariants
//
//   - Only the token holder runs user code or mutates scheduler state, except
//     the fields under execution.mu, which goroutines returning from real
//     operations, and unmanaged goroutines queueing their synchronisation
//     operations (external.go), also touch. The models change only in the
//     deciding goroutine: unmanaged operations reach them through that queue.
//   - Goroutine ids are creation indexes under the token: identical in every
//     replay.
//   - Every decision has a sequence number (Decision.Seq); a replay follows the
//     recorded decisions by sequence number and reports any disagreement as a
//     divergence instead of running a different schedule. The path
//     fingerprint (every step's goroutine, site and kind, every random draw;
//     past the trail's 16,384 steps, memory, mutex and atomic steps only by
//     their number) is compared at each recorded switch and at the end. A
//     random walk's schedule is its seed and number of draws
//     (Schedule.Walk): its replay walks again, so the walk's Next, Pick and
//     stays must depend only on its own draws and the decisions it sees.
//   - Everything an execution depends on is a function of the seed, the
//     execution index and the state the process reached through the earlier
//     executions of its worker: map ranges, maps.Keys/Values/All and
//     sync.Map.Range visit sorted keys, the global math/rand sources and
//     crypto/rand are seeded per execution, and a replay reruns those
//     earlier executions first (Config.Prior). Not covered: hashes of
//     hash/maphash, which mix in a per-process key.
//   - A failure aborts the execution: every managed goroutine stays blocked,
//     and the bubble is torn down by its own deadlock panic, which the runner
//     recovers.
//   - Observers see only the program's operations, never scheduler handoffs,
//     and run on the token holder: they need no locks and must not block.
//   - A tally batch (tally.go) is open only while its holder runs user code:
//     every runtime entry of the holder, and every decision, closes it
//     before reading or moving the step, so steps, decision numbers and
//     strategy counts are those of the one-access-at-a-time path.
package pct
