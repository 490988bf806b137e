#!/usr/bin/env bash
# The sweep of issue 9: gopct on popular modules' concurrency tests, pinned in
# bench/sweep/modules.txt. For each module: go mod download, copy the module to
# a scratch directory (made writable: the module cache is read-only; a module
# without go.mod gets the go.mod the go command synthesises for it), then one
# `gopct hunt -json` per listed test, or one `gopct ci -json` per ci line.
# Raw JSON lines and stderr go to $OUT (default /tmp/gopct-sweep-out); then
# bench/sweep/report.py joins them with bench/sweep/verdicts.txt into
# docs/SWEEP.md.
#
# Usage (from anywhere; takes ~30-45 min on a loaded 2-core machine):
#   bash bench/sweep/sweep.sh                 # run everything, write docs/SWEEP.md
#   ONLY=bbolt bash bench/sweep/sweep.sh      # only the lines matching ONLY (no docs/SWEEP.md)
#   REPORT_ONLY=1 bash bench/sweep/sweep.sh   # rewrite docs/SWEEP.md from $OUT
# Knobs: SEED (1), ITERS (200), BUDGET per test (20s), CI_BUDGET (120s), WORKERS (2),
# OUT (/tmp/gopct-sweep-out), GOPCT (where the binary is built, /tmp/gopct-sweep).
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/gopct-sweep-out}
SEED=${SEED:-1}
ITERS=${ITERS:-200}
BUDGET=${BUDGET:-20s}
CI_BUDGET=${CI_BUDGET:-120s}
WORKERS=${WORKERS:-2}
ONLY=${ONLY:-}
GOPCT=${GOPCT:-/tmp/gopct-sweep}
SCRATCH=$(mktemp -d /tmp/gopct-sweep-mods.XXXX)
trap 'chmod -R u+w "$SCRATCH" 2>/dev/null; rm -rf "$SCRATCH"' EXIT

report() {
	python3 "$REPO/bench/sweep/report.py" "$OUT" "$REPO/bench/sweep/verdicts.txt" \
		"SEED=$SEED ITERS=$ITERS BUDGET=$BUDGET CI_BUDGET=$CI_BUDGET WORKERS=$WORKERS" >"$REPO/docs/SWEEP.md"
	echo "wrote docs/SWEEP.md"
}
if [ -n "${REPORT_ONLY:-}" ]; then report; exit 0; fi

(cd "$REPO" && go build -o "$GOPCT" ./cmd/gopct) || exit 2
mkdir -p "$OUT"
[ -z "$ONLY" ] && rm -f "$OUT"/*.json "$OUT"/*.err

# fetch MODULE@VERSION: prints the writable copy's directory.
fetch() {
	local mv=$1 dir
	# The copy's directory name has no dot: tests that match their callers'
	# paths with patterns like [a-z0-9_-]+/config_test.go (zap's TestConfig,
	# fx's TestModuleTrace) fail natively in a directory named
	# go.uber.org_zap_v1.28.0 (regr36).
	dir="$SCRATCH/$(echo "$mv" | tr '/@+.' '____')"
	[ -f "$dir/.dir" ] && dir=$(cat "$dir/.dir")
	if [ ! -d "$dir" ]; then
		local info src gomod
		info=$(cd "$SCRATCH" && GOFLAGS=-mod=mod go mod download -json "$mv") || return 1
		src=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["Dir"])' "$info")
		gomod=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["GoMod"])' "$info")
		if grep -q '^replace .*=> \.\.\?/' "$gomod" 2>/dev/null; then
			# A module of a multi-module repository that replaces its siblings by
			# directory (otel/sdk: go.opentelemetry.io/otel => ../): the copy goes to
			# $dir/tree/MODULEPATH and bench/sweep/layout.py puts the siblings where
			# the replaces point. Printed: the copy's directory.
			local tree="$dir/tree"
			dir="$tree/${mv%@*}"
			mkdir -p "$(dirname "$dir")" && cp -r "$src" "$dir" && chmod -R u+w "$dir"
			python3 "$REPO/bench/sweep/layout.py" "$tree" "$dir" >&2 || return 1
			echo "$dir" >"$SCRATCH/$(echo "$mv" | tr '/@+.' '____')/.dir"
		else
			cp -r "$src" "$dir" && chmod -R u+w "$dir"
		fi
		if [ ! -f "$dir/go.mod" ]; then
			# The go.mod the go command synthesises for a module without
			# one requires nothing: tidy it, as a user of such a module
			# would (hystrix-go, eapache/channels: stop 34).
			cp "$gomod" "$dir/go.mod"
			(cd "$dir" && go mod tidy >/dev/null 2>&1)
		fi
		# The tests' dependencies (go.sum of the module itself lists them).
		(cd "$dir" && go mod download >/dev/null 2>&1)
	fi
	echo "$dir"
}

n=0
while read -r kind mv pkg tests; do
	case "$kind" in ''|'#'*) continue ;; esac
	if [ -n "$ONLY" ] && ! echo "$kind $mv $pkg $tests" | grep -q -- "$ONLY"; then continue; fi
	dir=$(fetch "$mv") || { echo "cannot download $mv" >&2; continue; }
	key=$(echo "$mv" | tr '/@+' '___')
	if [ "$kind" = ci ]; then
		# A module may have several ci lines, one per package pattern.
		f="$OUT/ci.$key"
		[ "$pkg" = ./... ] && [ -z "$tests" ] || f="$f.$(echo "$pkg${tests:+ $tests}" | tr '/. ' '___')"
		echo "$(date +%T) ci $mv $pkg $tests" >&2
		(cd "$dir" && nice "$GOPCT" ci -json -seed "$SEED" -budget "$CI_BUDGET" -workers "$WORKERS" $pkg $tests \
			>"$f.json" 2>"$f.err"; echo "{\"exit\": $?, \"module\": \"$mv\", \"pkgdir\": \"$pkg${tests:+ $tests}\", \"ci\": true}" >>"$f.json")
		continue
	fi
	for t in $tests; do
		n=$((n + 1))
		# A testify suite's method (TestSuite/TestMethod) names a file too.
		f="$OUT/hunt.$key.$(echo "$pkg" | tr '/.' '__').$(echo "$t" | tr '/' '_')"
		echo "$(date +%T) hunt $mv $pkg $t" >&2
		# -budget covers the build: on a loaded machine the first test of a
		# package can spend it all building. The build is cached then, so
		# such a test is hunted once more.
		for try in 1 2; do
			(cd "$dir" && nice "$GOPCT" hunt -json -seed "$SEED" -iters "$ITERS" -budget "$BUDGET" \
				-workers "$WORKERS" -run "^$t\$" "$pkg" >"$f.json" 2>"$f.err"
			echo "{\"exit\": $?, \"module\": \"$mv\", \"pkgdir\": \"$pkg\", \"name\": \"$t\"}" >>"$f.json")
			# In -json mode a build that left under a second of the budget
			# shows as a summary of no execution in under a second (exit 4),
			# without the "not hunted" line: hunt that one again too.
			grep -q 'not hunted' "$f.err" || grep -q '"executions":0,"seconds":0\.' "$f.json" || break
		done
	done
done <"$REPO/bench/sweep/modules.txt"
echo "$n hunts" >&2
[ -z "$ONLY" ] && report
exit 0
