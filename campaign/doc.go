// Package campaign turns a package and a test into bug reports: it
// instruments and builds the test binary (package instrument), runs worker
// processes that each execute a shard of the campaign (worker w runs
// executions w, w+W, ...), collects their JSON-lines records, and encodes
// the replay token of a bug.
//
// Invariants: the user's tree is never written (instrumentation goes
// through -overlay); with one worker the outcome of a hunt depends only on
// the seed; a worker that dies is reported as a "fatal" bug with the
// schedule read from its crash log, or as an error if it left none; errors
// caused by the user's input satisfy errors.Is(err, usererr.ErrUser) and map to exit
// code 2; a token carries the seed and the worker's earlier executions
// (first, stride), which a replay reruns before the recorded one so that
// package state carried between executions is rebuilt.
package campaign
