#!/usr/bin/env bash
# Cost of race detection and of each strategy on the overhead programs
# (issues 10 and 14): time per execution natively (go test -bench) and
# under gopct hunt with PCT and the random walk, every memory access a
# scheduling point, with race detection off and on (the default), as
# ratios to native measured in the same run. Each gopct cell shows wall
# time and, in brackets, CPU time (user+system of the worker process,
# start-up included) per execution; the last two columns are the slowdown
# race detection adds, in CPU time per execution (the better measure on a
# shared machine, where wall time depends on the other processes' load).
# Usage: bash bench/scripts/race_cost.sh [EXECUTIONS] [PROGRAMS...]
#   (markdown table on stdout; PROGRAMS default: MergeSort HashSet MonteCarlo)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-5}
shift || true
progs=${*:-MergeSort HashSet MonteCarlo}
bin=$(mktemp -d)/gopct
go build -o "$bin" ./cmd/gopct
native=$(cd bench/overhead && go test -run XXX -bench . -benchtime 20x -count 1 .)
echo "| program | native | pct, race off | pct, race on | random, race off | random, race on | race on/off CPU (pct) | race on/off CPU (random) |"
echo "|---|---|---|---|---|---|---|---|"
for prog in $progs; do
	ns=$(echo "$native" | awk -v b="Benchmark$prog" '$1 ~ "^"b"(-[0-9]+)?$" {print $3}')
	row=""
	for cfg in "-strategy pct -race=false" "-strategy pct" "-strategy random -race=false" "-strategy random"; do
		# shellcheck disable=SC2086
		s=$("$bin" hunt $cfg -seed 1 -workers 1 -iters "$n" -json -run "^Test$prog\$" ./bench/overhead | tail -1)
		row="$row $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["bug"] is None and d["finished"] == d["executions"], d; e=max(1,d["executions"]); print("%.6f,%.6f" % (d["seconds"]/e, d.get("cpuSeconds", 0)/e))' "$s")"
	done
	python3 - "$prog" "$ns" $row <<'PY'
import sys
prog, ns, *per = sys.argv[1:]
native = float(ns) / 1e9
wall = [float(p.split(",")[0]) for p in per]
cpu = [float(p.split(",")[1]) for p in per]
cells = ["%.1f ms (%.1fx) [cpu %.1f ms]" % (1000 * w, w / native, 1000 * c) for w, c in zip(wall, cpu)]
ratio = lambda a, b: "%.2f" % (a / b) if b > 0 else "?"
print("| %s | %.1f ms | %s | %s | %s |" % (prog, native * 1000, " | ".join(cells), ratio(cpu[1], cpu[0]), ratio(cpu[3], cpu[2])))
PY
done
