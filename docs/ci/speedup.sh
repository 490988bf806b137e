#!/bin/sh
# Speed-up of gopct hunt -workers 2 over -workers 1 in executions per
# second, on a correct test (no bug, so every run does all executions):
# ROUNDS alternating pairs, each pair's ratio, and the median ratio, over
# all pairs and over the quiet ones (other work below QUIET cores).
# Usage: [QUIET=0.3] sh docs/ci/speedup.sh [ROUNDS] [ITERS]   (from the repository root)
set -e
ROUNDS=${1:-5}
ITERS=${2:-20000}
ROOT=$(pwd)
GOPCT=$(mktemp -d)/gopct
go build -o "$GOPCT" ./cmd/gopct
MOD=$(mktemp -d)
cat > "$MOD/go.mod" <<'GOMOD'
module example.com/speedup

go 1.24
GOMOD
cat > "$MOD/x_test.go" <<'GOTEST'
package x

import (
	"sync"
	"testing"
)

// TestSlow is correct: two goroutines take a mutex 300 times each.
func TestSlow(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 300 {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 600 {
		t.Fatalf("n = %d", n)
	}
}
GOTEST
cd "$MOD"
"$GOPCT" hunt -race=false -seed 1 -workers 1 -iters 10 . > /dev/null   # warm the build cache
# Per run: executions per second of wall-clock time (what the user waits
# for), per CPU second of the worker processes (the summary's cpuSeconds:
# what the machine spends), and how busy the machine was with other work
# meanwhile (from /proc/stat: all CPU time used minus this run's own).
# Runs of 1 and 2 workers alternate, so both see the same mix of load; a
# pair where other work took less than QUIET cores in both runs is quiet:
# its ratio measures gopct, not the neighbours. "Cores used" is executions
# per second over executions per CPU second: the CPU the run got. (Linux
# with autogroup scheduling, /proc/sys/kernel/sched_autogroup_enabled = 1,
# shares a busy machine's CPU between sessions, not processes: two workers
# then get the share one would have, and only quiet pairs show a speed-up.)
python3 -u - "$GOPCT" "$ROUNDS" "$ITERS" "${QUIET:-0.3}" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
gopct, rounds, iters, quiet = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
hz = os.sysconf("SC_CLK_TCK")
def busy():
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(f[:8]) - f[3] - f[4]) / hz  # all but idle and iowait
def own():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
def run(w):
    b0, o0, t0 = busy(), own(), time.monotonic()
    out = subprocess.run([gopct, "hunt", "-race=false", "-seed", "1", "-workers", str(w), "-iters", iters, "-json", "."],
                         capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - t0
    others = max(0.0, (busy() - b0) - (own() - o0)) / wall
    s = json.loads(out.strip().splitlines()[-1])
    return s["executions"] / s["seconds"], s["executions"] / s["cpuSeconds"], others
ratios, eff, quiet_ratios = [], [], []
for i in range(rounds):
    (w1, c1, o1), (w2, c2, o2) = run(1), run(2)
    ratios.append(w2 / w1)
    eff.append(c2 / c1)
    q = o1 < quiet and o2 < quiet
    if q:
        quiet_ratios.append(w2 / w1)
    print(f"round {i+1}: -workers 1 {w1:.0f} exec/s ({c1:.0f} per CPU s), -workers 2 {w2:.0f} exec/s ({c2:.0f} per CPU s), "
          f"speed-up {w2/w1:.2f}, CPU efficiency {c2/c1:.2f}; cores used {w1/c1:.2f} / {w2/c2:.2f}, "
          f"other work {o1:.2f} / {o2:.2f} cores{' (quiet)' if q else ''} "
          f"(load {open('/proc/loadavg').read().split()[0]})")
print(f"median wall-clock speed-up {statistics.median(ratios):.2f} over {rounds} pairs; "
      f"median executions per CPU second, 2 workers against 1: {statistics.median(eff):.2f} "
      f"(the speed-up with two free cores is at most 2 x this)")
if quiet_ratios:
    print(f"quiet pairs (other work < {quiet} cores in both runs): {len(quiet_ratios)}, median speed-up "
          f"{statistics.median(quiet_ratios):.2f} (min {min(quiet_ratios):.2f}, max {max(quiet_ratios):.2f})")
else:
    print(f"no quiet pair (other work < {quiet} cores in both runs): the wall-clock ratio measures the load")
PY
cd "$ROOT"
