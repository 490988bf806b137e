#!/usr/bin/env bash
# gopct on the GoKer blocking-bug kernels (GoBench, Yuan et al., CGO'21) that
# Go 1.26+ ships in $GOROOT/src/runtime/testdata/testgoroutineleakprofile/goker.
# The kernels are copied at run time from the user's GOROOT into scratch
# modules by bench/goker/prepare (never into this repository):
#   - gopct module: each registered kernel becomes TestNAME(t) { NAME() },
#     with the copies loops cut to COPIES (one instance of the bug, as in
#     GoBench's own unit tests); one `gopct hunt -json` per kernel, then
#     `gopct replay -json` of the printed token (exit 1: reproduced);
#   - native module: the kernels as shipped (all their copies) plus a
#     goleak-style check (goroutines of the kernel still blocked GRACE after
#     it returned fail the test), run as a plain test binary with
#     -test.count=1000000 -test.failfast for NATIVE_BUDGET of wall time;
#   - native1 module: the same with one copy of each kernel, as gopct runs
#     it, for NATIVE1_BUDGET.
# Raw output goes to $OUT; bench/goker/report.py joins it with
# bench/goker/verdicts.txt into docs/GOKER.md.
#
# Needs Go 1.26 or newer (the kernels ship with it), bash, python3 and
# coreutils' timeout; nothing is downloaded.
# Usage (from anywhere; ~15-40 min on a loaded 2-core machine):
#   bash bench/goker/run.sh                   # everything, writes docs/GOKER.md
#   ONLY=Etcd bash bench/goker/run.sh         # kernels matching ONLY (no docs/GOKER.md)
#   REPORT_ONLY=1 bash bench/goker/run.sh     # rewrite docs/GOKER.md from $OUT
#   NATIVE=0 / NATIVE1=0 / HUNT=0             # skip a native baseline / the hunts
# Knobs: SEED (1), ITERS (1000), BUDGET per kernel (20s), COPIES (1; 0 = as
# shipped), WORKERS (2), NATIVE_BUDGET (20s), NATIVE_COPIES (0: as shipped),
# NATIVE1_BUDGET (10s), GRACE (1s), OUT
# (/tmp/gopct-goker-out), GOPCT (where the binary is built, /tmp/gopct-goker).
# The whole script is one block, read before it runs: editing this file
# during a run does not change the run.
{
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/gopct-goker-out}
SEED=${SEED:-1}
ITERS=${ITERS:-1000}
BUDGET=${BUDGET:-20s}
COPIES=${COPIES:-1}
WORKERS=${WORKERS:-2}
NATIVE_BUDGET=${NATIVE_BUDGET:-20s}
GRACE=${GRACE:-1s}
NATIVE_COPIES=${NATIVE_COPIES:-0}
ONLY=${ONLY:-}
HUNT=${HUNT:-1}
NATIVE=${NATIVE:-1}
NATIVE1=${NATIVE1:-1}
NATIVE1_BUDGET=${NATIVE1_BUDGET:-10s}
GOPCT=${GOPCT:-/tmp/gopct-goker}
KNOBS="SEED=$SEED ITERS=$ITERS BUDGET=$BUDGET COPIES=$COPIES WORKERS=$WORKERS NATIVE_BUDGET=$NATIVE_BUDGET NATIVE_COPIES=$NATIVE_COPIES NATIVE1_BUDGET=$NATIVE1_BUDGET GRACE=$GRACE"

report() {
	python3 "$REPO/bench/goker/report.py" "$OUT" "$REPO/bench/goker/verdicts.txt" "$KNOBS" \
		"$(go env GOROOT)" >"$REPO/docs/GOKER.md" &&
		echo "wrote docs/GOKER.md"
}
if [ -n "${REPORT_ONLY:-}" ]; then report; exit 0; fi

SCRATCH=$(mktemp -d /tmp/gopct-goker.XXXX)
trap 'rm -rf "$SCRATCH"' EXIT
(cd "$REPO" && go build -o "$GOPCT" ./cmd/gopct && go build -o "$SCRATCH/prepare" ./bench/goker/prepare) || exit 2
"$SCRATCH/prepare" -out "$SCRATCH/hunt" -copies "$COPIES" || exit 2
"$SCRATCH/prepare" -out "$SCRATCH/native" -native -copies "$NATIVE_COPIES" || exit 2
(cd "$SCRATCH/native" && go test -c -o "$SCRATCH/native.test" .) || exit 2
"$SCRATCH/prepare" -out "$SCRATCH/native1" -native -copies 1 || exit 2
(cd "$SCRATCH/native1" && go test -c -o "$SCRATCH/native1.test" .) || exit 2
mkdir -p "$OUT"
[ -z "$ONLY" ] && rm -f "$OUT"/*.json "$OUT"/*.err "$OUT"/*.txt
rm -rf "$OUT/src" && cp -r "$SCRATCH/hunt" "$OUT/src"
"$SCRATCH/prepare" -funcs -src "$SCRATCH/hunt" >"$OUT/funcs.json"
echo "$KNOBS go=$(go env GOVERSION) gopct=$(git -C "$REPO" rev-parse --short HEAD)" >"$OUT/knobs"

# token FILE: the replay token of the hunt's summary (last JSON line), if any.
token() {
	tail -n 1 "$1" | python3 -c 'import json,sys
try:
    b = json.loads(sys.stdin.read()).get("bug")
    print(b["replay"] if b else "")
except Exception:
    print("")'
}

# hunt1 T SUFFIX FLAGS...: one hunt into T.SUFFIX.json, then the replay of
# its report into T.SUFFIX-replay.json. -budget covers the build: when the
# first hunt spent it building, the build is cached and the hunt runs again.
hunt1() {
	local t=$1 f="$OUT/$1.$2"
	shift 2
	for try in 1 2; do
		(cd "$SCRATCH/hunt" && nice "$GOPCT" hunt -json -seed "$SEED" -iters "$ITERS" -budget "$BUDGET" \
			-workers "$WORKERS" "$@" -run "^$t\$" . >"$f.json" 2>"$f.err"
		echo "{\"exit\": $?}" >"$f.exit.json")
		grep -q 'not hunted' "$f.err" || break
	done
	# The token goes through a file: with all the kernels' copies
	# (COPIES=0) a schedule's token can pass Linux's 128 KiB argument limit.
	token "$f.json" >"$f.token"
	[ -s "$f.token" ] && [ "$(wc -c <"$f.token")" -gt 1 ] || return 0
	(cd "$SCRATCH/hunt" && nice "$GOPCT" replay -json "@$f.token" >"$f-replay.json" 2>"$f-replay.err"
	echo "{\"exit\": $?}" >"$f-replay.exit.json")
}

# hunt T: the hunt; when its first report is a data race (the kernels are
# blocking bugs), a second hunt with -race=false looks for the blocking bug.
hunt() {
	hunt1 "$1" hunt
	if tail -n 1 "$OUT/$1.hunt.json" | grep -q '"kind":"race"'; then
		hunt1 "$1" norace -race=false
	fi
}

# native T NAME BUDGET: the test binary NAME.test (native: as shipped;
# native1: one copy, as gopct runs it) until its first failure or BUDGET.
native() {
	local t=$1 f="$OUT/$1.$2" start end
	start=$(date +%s%N)
	(cd "$SCRATCH/$2" && GOKER_GRACE=$GRACE nice timeout -s INT "$3" "$SCRATCH/$2.test" \
		-test.run "^$t\$" -test.count=1000000 -test.failfast -test.v -test.timeout 0 >"$f.txt" 2>&1
	echo "{\"exit\": $?}" >"$f.exit.json")
	end=$(date +%s%N)
	echo "{\"ms\": $(((end - start) / 1000000))}" >"$f.time.json"
}

for t in $("$SCRATCH/prepare" -list); do
	if [ -n "$ONLY" ] && ! echo "$t" | grep -q -- "$ONLY"; then continue; fi
	echo "$(date +%T) $t" >&2
	[ "$HUNT" = 1 ] && hunt "$t"
	[ "$NATIVE" = 1 ] && native "$t" native "$NATIVE_BUDGET"
	[ "$NATIVE1" = 1 ] && native "$t" native1 "$NATIVE1_BUDGET"
done
[ -z "$ONLY" ] && report
exit 0
}
