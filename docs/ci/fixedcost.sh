#!/bin/sh
# Warm-cache fixed cost per package: wall-clock time of `gopct hunt -iters 1`
# (instrument, build through the cache, list the tests, run one execution
# of each) against `go test -count=1` of the same package, ROUNDS
# alternating pairs after one warming run of each; median ratio.
# Usage: sh docs/ci/fixedcost.sh [ROUNDS] [PACKAGE...]   (from the repository root;
# packages relative to corpus/, default three kernels)
set -e
ROUNDS=${1:-5}
[ $# -gt 0 ] && shift
PKGS=${*:-./abba_transfer ./cta_balance ./wg_add_inside}
GOPCT=$(mktemp -d)/gopct
go build -o "$GOPCT" ./cmd/gopct
cd corpus
python3 - "$GOPCT" "$ROUNDS" $PKGS <<'PY'
import statistics, subprocess, sys, time
gopct, rounds, pkgs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def wall(cmd):
    t = time.time()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.time() - t
for pkg in pkgs:
    hunt = [gopct, "hunt", "-seed", "1", "-iters", "1", pkg]
    test = ["go", "test", "-count=1", pkg]
    wall(hunt), wall(test)  # warm both caches
    ratios = []
    for _ in range(rounds):
        h, g = wall(hunt), wall(test)
        ratios.append(h / g)
        print(f"{pkg}: gopct hunt {h:.2f}s, go test {g:.2f}s, ratio {h/g:.2f} (load {open('/proc/loadavg').read().split()[0]})")
    print(f"{pkg}: median ratio {statistics.median(ratios):.2f}")
PY
