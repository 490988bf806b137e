#!/usr/bin/env bash
# The overhead table (ISSTA'13 Table 2 style; issues 11 and 14): time per
# execution of three CPU-heavy correct programs (bench/overhead) natively
# (go test -bench) and under gopct with each strategy and variable bound,
# as ratios to native measured in the same run.
# Usage: bash bench/scripts/overhead.sh [EXECUTIONS] > docs/OVERHEAD.md
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10}
go build -o /tmp/gopct-overhead ./cmd/gopct
# Two native baselines: the machine's parallelism (the goal's reference, as
# in the paper) and one core (GOMAXPROCS=1), which is what gopct runs on.
native=$(cd bench/overhead && go test -run XXX -bench . -benchtime 20x -count 1 .)
native1=$(cd bench/overhead && go test -run XXX -bench . -benchtime 20x -count 1 -cpu 1 .)
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| program | native | native 1 core | pct v=0 | pctvb v=1 | pctvb v=2 | pct v=all | random v=all | v-all/v1 |"
echo "|---|---|---|---|---|---|---|---|---|"
for prog in MergeSort HashSet MonteCarlo; do
	ns=$(echo "$native" | awk -v b="Benchmark$prog" '$1 ~ "^"b"(-[0-9]+)?$" {print $3}')
	ns1=$(echo "$native1" | awk -v b="Benchmark$prog" '$1 ~ "^"b"(-[0-9]+)?$" {print $3}')
	row=""
	for cfg in "-strategy pctvb -v 0" "-strategy pctvb -v 1" "-strategy pctvb -v 2" "-strategy pct" "-strategy random"; do
		# shellcheck disable=SC2086
		s=$(/tmp/gopct-overhead hunt $cfg -race=false -seed 1 -workers 1 -iters "$n" -json -run "^Test$prog\$" ./bench/overhead | tail -1)
		row="$row $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%.6f" % (d["seconds"]/max(1,d["executions"])))' "$s")"
	done
	python3 - "$prog" "$ns" "$ns1" $row <<'PY'
import sys
prog, ns, ns1, *per = sys.argv[1:]
native, native1 = float(ns) / 1e9, float(ns1) / 1e9
cells = ["%.1f ms (%.1fx)" % (1000 * float(p), float(p) / native) for p in per]
print("| %s | %.1f ms | %.1f ms (%.1fx) | %s | %.1f |" % (prog, native * 1000, native1 * 1000,
      native1 / native, " | ".join(cells), float(per[3]) / float(per[1])))
PY
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
