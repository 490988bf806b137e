#!/usr/bin/env bash
# Cost of race detection and of each strategy on the overhead programs
# (issues 10 and 14): time per execution natively (go test -bench) and
# under gopct hunt with PCT and the random walk, every memory access a
# scheduling point, with race detection off and on (the default), as
# ratios to native measured in the same run; the last column is the
# slowdown race detection adds to PCT.
# Usage: bash bench/scripts/race_cost.sh [EXECUTIONS]   (markdown table on stdout)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-5}
bin=$(mktemp -d)/gopct
go build -o "$bin" ./cmd/gopct
native=$(cd bench/overhead && go test -run XXX -bench . -benchtime 20x -count 1 .)
echo "| program | native | pct, race off | pct, race on | random, race off | random, race on | race on/off (pct) | race on/off (random) |"
echo "|---|---|---|---|---|---|---|---|"
for prog in MergeSort HashSet MonteCarlo; do
	ns=$(echo "$native" | awk -v b="Benchmark$prog" '$1 ~ "^"b"(-[0-9]+)?$" {print $3}')
	row=""
	for cfg in "-strategy pct -race=false" "-strategy pct" "-strategy random -race=false" "-strategy random"; do
		# shellcheck disable=SC2086
		s=$("$bin" hunt $cfg -seed 1 -workers 1 -iters "$n" -json -run "^Test$prog\$" ./bench/overhead | tail -1)
		row="$row $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["bug"] is None and d["finished"] == d["executions"], d; print("%.6f" % (d["seconds"]/max(1,d["executions"])))' "$s")"
	done
	python3 - "$prog" "$ns" $row <<'PY'
import sys
prog, ns, *per = sys.argv[1:]
native = float(ns) / 1e9
per = [float(p) for p in per]
cells = ["%.1f ms (%.1fx)" % (1000 * p, p / native) for p in per]
print("| %s | %.1f ms | %s | %.2f | %.2f |" % (prog, native * 1000, " | ".join(cells), per[1] / per[0], per[3] / per[2]))
PY
done
