#!/usr/bin/env bash
# How closely -budget holds on a slow test (issue 9, item 10): hunts
# bench/budget's TestSlow, whose executions take seconds each, with -budget
# B (build included) and 1 and 2 workers, and prints the wall time and the
# overrun against B.
# Usage: bash bench/scripts/budget.sh [BUDGET_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
b=${1:-20}
go build -o /tmp/gopct-budget ./cmd/gopct
for w in 1 2; do
	start=$(date +%s.%N)
	/tmp/gopct-budget hunt -race=false -seed 1 -iters 1000 -workers "$w" -budget "${b}s" ./bench/budget >/dev/null || true
	end=$(date +%s.%N)
	python3 -c 'import sys; b, s, e, w = map(float, sys.argv[1:]); t = e - s; print("workers %d: budget %.0f s, wall %.2f s, overrun %+.1f%%" % (w, b, t, 100 * (t - b) / b))' "$b" "$start" "$end" "$w"
done
