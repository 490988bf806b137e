#!/usr/bin/env bash
# Same schedules before and after a change of the runtime's bookkeeping
# (issue 11's rule for work on the engine's cost: a step, a sequence
# number, the path fingerprint, the trail and the per-site hits must not
# change). Hunts every corpus kernel's TestBug with seed 1 under pctvb
# -v 1, pctvb -v 2 and pct, with each of two gopct binaries, and compares
# the executions, the bug's kind, execution and steps, and a hash of its
# token (the schedule, which carries the fingerprint and the trail).
# Usage: bash bench/scripts/sameschedules.sh GOPCT_BEFORE GOPCT_AFTER
# Prints one line per hunt that differs and a summary; exit 1 if any does.
set -euo pipefail
cd "$(dirname "$0")/../../corpus"
before=$(realpath "$1")
after=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hunt() { # binary kernel strategy-flags...
	local bin=$1 k=$2
	shift 2
	"$bin" hunt -json -seed 1 -workers 1 "$@" -run '^TestBug$' "./$k" 2>&1 | tail -1 | python3 -c '
import hashlib, json, sys
line = sys.stdin.read().strip()
try:
    d = json.loads(line)
except ValueError:
    print("no summary:", line)  # an error message (e.g. nothing for pctvb to track)
    sys.exit()
b = d.get("bug") or {}
token = hashlib.sha1((b.get("schedule") or "").encode()).hexdigest()[:12]
print(d.get("executions"), b.get("kind"), b.get("execution"), b.get("steps"), token)'
}
n=0
for k in */; do
	k=${k%/}
	for cfg in "-strategy pctvb -v 1" "-strategy pctvb -v 2" "-strategy pct"; do
		# shellcheck disable=SC2086
		echo "$k|$cfg|$(hunt "$before" "$k" $cfg)" >>"$tmp/before"
		# shellcheck disable=SC2086
		echo "$k|$cfg|$(hunt "$after" "$k" $cfg)" >>"$tmp/after"
		n=$((n + 1))
	done
done
if diff "$tmp/before" "$tmp/after"; then
	echo "$n of $n hunts the same"
	exit 0
fi
echo "$(diff "$tmp/before" "$tmp/after" | grep -c '^<') of $n hunts differ"
exit 1
