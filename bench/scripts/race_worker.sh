#!/usr/bin/env bash
# CPU time and peak memory of one gopct worker process (the instrumented
# test binary, run directly: no parent, no build) over the overhead
# programs, race detection off and on, PCT and the random walk (issue 10).
# hunt's cpuSeconds includes the worker's start-up and says nothing of
# memory; this measures the executions alone with GNU time.
# Usage: bash bench/scripts/race_worker.sh [EXECUTIONS] [PROGRAMS...]
#   (markdown table on stdout; default 5 executions, MergeSort HashSet)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-5}
shift || true
progs=${*:-MergeSort HashSet}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/gopct" ./cmd/gopct
# One cheap hunt to get the instrumented test binary (GOPCT_KEEP keeps it).
GOPCT_KEEP=$dir "$dir/gopct" hunt -race=false -seed 1 -workers 1 -iters 1 -run '^TestMonteCarlo$' ./bench/overhead >/dev/null
cd bench/overhead
echo "| program | strategy | race off: CPU/exec, peak RSS | race on: CPU/exec, peak RSS | CPU on/off |"
echo "|---|---|---|---|---|"
for prog in $progs; do
	for strat in pct random; do
		cells=""
		for race in false true; do
			python3 - "$dir" "$prog" "$strat" "$race" "$n" <<'PY'
import json, sys
d, prog, strat, race, n = sys.argv[1:]
spec = {"name": strat, "d": 3} if strat == "pct" else {"name": strat}
json.dump({"v": 2, "test": "Test" + prog, "spec": spec, "seed": 1, "iters": int(n), "worker": 0, "workers": 1,
           "timeout": 600_000_000_000, "stall": 20, "maxDelay": 100_000_000, "race": race == "true",
           "out": d + "/out.jsonl", "crashLog": d + "/crash.log"}, open(d + "/cfg.json", "w"))
PY
			rm -f "$dir/out.jsonl"
			/usr/bin/time -o "$dir/time" -f "%U %S %M" env GOPCT_CONFIG="$dir/cfg.json" "$dir/pkg.test" \
				-test.run "^Test$prog\$" -test.count=1 >/dev/null
			grep -q "\"type\":\"done\".*\"finished\":$n," "$dir/out.jsonl" || { echo "$prog $strat race=$race: not $n finished executions" >&2; exit 1; }
			cells="$cells $(cat "$dir/time" | tr ' ' ,)"
		done
		python3 - "$prog" "$strat" "$n" $cells <<'PY'
import sys
prog, strat, n, *cells = sys.argv[1:]
vals = [[float(x) for x in c.split(",")] for c in cells]
cpu = [(u + s) / int(n) for u, s, _ in vals]
print("| %s | %s | %s | %s | %.2f |" % (prog, strat, *["%.0f ms, %.0f MB" % (1000 * c, v[2] / 1024) for c, v in zip(cpu, vals)], cpu[1] / cpu[0]))
PY
	done
done
