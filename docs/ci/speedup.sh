#!/bin/sh
# Speed-up of gopct hunt -workers 2 over -workers 1 in executions per
# second, on a correct test (no bug, so every run does all executions):
# ROUNDS alternating pairs, each pair's ratio, and the median ratio.
# Usage: sh docs/ci/speedup.sh [ROUNDS] [ITERS]   (from the repository root)
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
# for) and per CPU second of the worker processes (the summary's
# cpuSeconds: what the machine spends; on a machine shared with other
# jobs, the wall-clock rate depends on their load, the CPU rate much less).
python3 - "$GOPCT" "$ROUNDS" "$ITERS" <<'PY'
import json, statistics, subprocess, sys
gopct, rounds, iters = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def run(w):
    out = subprocess.run([gopct, "hunt", "-race=false", "-seed", "1", "-workers", str(w), "-iters", iters, "-json", "."],
                         capture_output=True, text=True, check=True).stdout
    s = json.loads(out.strip().splitlines()[-1])
    return s["executions"] / s["seconds"], s["executions"] / s["cpuSeconds"]
ratios, eff = [], []
for i in range(rounds):
    (w1, c1), (w2, c2) = run(1), run(2)
    ratios.append(w2 / w1)
    eff.append(c2 / c1)
    print(f"round {i+1}: -workers 1 {w1:.0f} exec/s ({c1:.0f} per CPU s), -workers 2 {w2:.0f} exec/s ({c2:.0f} per CPU s), "
          f"speed-up {w2/w1:.2f}, CPU efficiency {c2/c1:.2f} (load {open('/proc/loadavg').read().split()[0]})")
print(f"median wall-clock speed-up {statistics.median(ratios):.2f}; median executions per CPU second, 2 workers against 1: "
      f"{statistics.median(eff):.2f} (on an idle 2-core machine the speed-up approaches 2 x this)")
PY
cd "$ROOT"
