// Package campaign turns a package and a test into bug reports: it
// instruments and builds the test binary (package instrument; a front
// cache skips both when no input changed), runs worker processes that each
// execute a share of the campaign (executions come in chunks; worker w of
// W runs chunks w, w+W, ...), collects their JSON-lines records, and
// encodes the replay token of a bug. It also runs CI campaigns over many
// packages (ci.go) and keeps results files for resuming (store.go).
//
// Invariants: the user's tree is never written (instrumentation goes
// through -overlay); the outcome of a hunt (its first bug and replay)
// depends only on the seed, the executions and the chunk size, never on
// the number of workers or shards; a worker that dies is reported as a
// "fatal" bug with the schedule read from its crash log when the replay of
// that schedule dies too, and is replaced otherwise; errors caused by the
// user's input satisfy errors.Is(err, usererr.ErrUser) and map to exit
// code 2; a token carries the seed and the hunt's worker sequences, so that
// a replay reruns the executions the failing one's worker ran before it
// and package state carried between executions is rebuilt.
package campaign
