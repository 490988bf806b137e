#!/usr/bin/env bash
# Coverage: distinct happens-before classes against executions, per
# strategy (the data of Musuvathi & Qadeer's PLDI'07 Figure 2), on correct
# programs of bench/por. The exhaustive search runs up to c = MAXC; PCT
# (d = 3), PCTVB (v = 1, d = 3; "-" where no variable is shared) and the
# random walk run as many executions,
# seed 1, one worker. Prints a Markdown table and writes each strategy's
# JSON summary (its "coverage" field is the curve) to OUT/.
# Usage: bash bench/scripts/coverage_table.sh [MAXC] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
maxc=${1:-3}
out=${2:-/tmp/gopct-coverage}
mkdir -p "$out"
go build -o /tmp/gopct-cov ./cmd/gopct
for test in TestLockedCounters TestWorkStealing; do
	/tmp/gopct-cov explore -json -c "$maxc" -run "^$test\$" ./bench/por | tail -1 >"$out/$test-exhaustive.json"
	n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["coverage"][-1]["executions"])' "$out/$test-exhaustive.json")
	for s in pct pctvb random; do
		extra=""
		[ "$s" = pctvb ] && extra="-v 1"
		/tmp/gopct-cov hunt -json -coverage -race=false -seed 1 -workers 1 -iters "$n" -strategy "$s" $extra \
			-run "^$test\$" ./bench/por | tail -1 >"$out/$test-$s.json" || echo '{"coverage": []}' >"$out/$test-$s.json"
	done
	python3 - "$out" "$test" "$maxc" <<'PY'
import json, sys
out, test, maxc = sys.argv[1:]
names = ["exhaustive", "pct", "pctvb", "random"]
curves = {s: json.load(open("%s/%s-%s.json" % (out, test, s)))["coverage"] for s in names}
n = curves["exhaustive"][-1]["executions"]
marks = [m for m in (10, 30, 100, 300, 1000, 3000, 10000, 30000) if m < n] + [n]
def at(curve, m):
    best = 0 if curve else "-"
    for p in curve:
        if p["executions"] <= m:
            best = p["classes"]
    return best
print()
print("### %s (bench/por): distinct HB classes after N executions (exhaustive up to c=%s)" % (test, maxc))
print()
print("| N | " + " | ".join(names) + " |")
print("|---|" + "---|" * len(names))
for m in marks:
    print("| %d | " % m + " | ".join(str(at(curves[s], m)) for s in names) + " |")
PY
done
