#!/usr/bin/env bash
# The overhead tables (ISSTA'13 Table 2 style; issues 11 and 14): time per
# execution of three CPU-heavy correct programs (bench/overhead) natively
# (go test -bench) and under gopct with each strategy and variable bound,
# as ratios to native measured in the same run. Two tables: wall time, and
# CPU time (user+system), which a loaded machine distorts much less.
# Usage: bash bench/scripts/overhead.sh [EXECUTIONS] > table.md
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gopct" ./cmd/gopct
(cd bench/overhead && go test -c -o "$tmp/overhead.test" .)
# Two native wall-time baselines: the machine's parallelism (the goal's
# reference, as in the paper) and one core (GOMAXPROCS=1), which is what
# gopct runs on.
native=$(cd bench/overhead && "$tmp/overhead.test" -test.run XXX -test.bench . -test.benchtime 20x -test.count 1)
native1=$(cd bench/overhead && "$tmp/overhead.test" -test.run XXX -test.bench . -test.benchtime 20x -test.count 1 -test.cpu 1)
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
configs=("-strategy pctvb -v 0" "-strategy pctvb -v 1" "-strategy pctvb -v 2" "-strategy pct" "-strategy random")
rows=()
for prog in MergeSort HashSet MonteCarlo; do
	ns=$(echo "$native" | awk -v b="Benchmark$prog" '$1 ~ "^"b"(-[0-9]+)?$" {print $3}')
	ns1=$(echo "$native1" | awk -v b="Benchmark$prog" '$1 ~ "^"b"(-[0-9]+)?$" {print $3}')
	# Native CPU per execution on one core: the benchmark process's
	# user+system CPU at 4n+1 iterations minus that at 1, over 4n (the
	# difference removes process start and the benchmark's first round).
	cpu=$(python3 - "$tmp/overhead.test" "$prog" "$n" <<'PY'
import resource, subprocess, sys
binary, prog, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def cpu(iters):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, "-test.run", "XXX", "-test.bench", "^Benchmark%s$" % prog,
                    "-test.benchtime", "%dx" % iters, "-test.cpu", "1"], cwd="bench/overhead",
                   check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print("%.6f" % ((cpu(4 * n + 1) - cpu(1)) / (4 * n)))
PY
)
	cells=""
	for cfg in "${configs[@]}"; do
		# Per execution, as native's: the hunt of 2+n executions minus
		# that of 2, over n (the difference removes the worker processes'
		# start, one per variable set, and their first executions).
		# shellcheck disable=SC2086
		few=$("$tmp/gopct" hunt $cfg -race=false -seed 1 -workers 1 -iters 2 -json -run "^Test$prog\$" ./bench/overhead | tail -1)
		# shellcheck disable=SC2086
		many=$("$tmp/gopct" hunt $cfg -race=false -seed 1 -workers 1 -iters $((n + 2)) -json -run "^Test$prog\$" ./bench/overhead | tail -1)
		cells="$cells $(python3 -c 'import json,sys; a,b=json.loads(sys.argv[1]),json.loads(sys.argv[2]); n=b["executions"]-a["executions"]; print("%.6f,%.6f" % ((b["seconds"]-a["seconds"])/n, (b.get("cpuSeconds",0)-a.get("cpuSeconds",0))/n))' "$few" "$many")"
	done
	rows+=("$prog $ns $ns1 $cpu $cells")
done
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
printf '%s\n' "${rows[@]}" | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip()]
def ms(s): return "%.1f ms" % (1000 * s)
print()
print("Wall time per execution (ratio to native):")
print()
print("| program | native | native 1 core | pct v=0 | pctvb v=1 | pctvb v=2 | pct v=all | random v=all | v-all/v1 |")
print("|---|---|---|---|---|---|---|---|---|")
for prog, ns, ns1, cpu, *cells in rows:
    native, native1 = float(ns) / 1e9, float(ns1) / 1e9
    wall = [float(c.split(",")[0]) for c in cells]
    print("| %s | %s | %s (%.1fx) | %s | %.1f |" % (prog, ms(native), ms(native1), native1 / native,
          " | ".join("%s (%.1fx)" % (ms(w), w / native) for w in wall), wall[3] / wall[1]))
print()
print("CPU time (user+system) per execution (ratio to native CPU on one core):")
print()
print("| program | native CPU | pct v=0 | pctvb v=1 | pctvb v=2 | pct v=all | random v=all | v-all/v1 |")
print("|---|---|---|---|---|---|---|---|")
for prog, ns, ns1, cpu, *cells in rows:
    native = float(cpu)
    c = [float(x.split(",")[1]) for x in cells]
    print("| %s | %s | %s | %.1f |" % (prog, ms(native),
          " | ".join("%s (%.1fx)" % (ms(x), x / native) for x in c), c[3] / c[1]))
'
