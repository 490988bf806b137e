#!/usr/bin/env bash
# Strategies side by side on GoKer's 63 blocking kernels (the ones Go ships
# in $GOROOT/src/runtime/testdata/testgoroutineleakprofile/goker, prepared
# by bench/goker/prepare as for bench/goker/run.sh, one copy of each
# kernel's goroutines): for each kernel and strategy, the index of the
# execution of the first report (from 0), or "none/N" after N executions.
# Prints a Markdown table and the totals.
# Usage: bash bench/scripts/strategies.sh [STRATEGIES] > table.md
#   STRATEGIES: comma-separated (default pct,random,portfolio)
# Knobs: SEED (1), ITERS (1000), BUDGET per hunt (20s), ONLY (a grep
# pattern over the kernels' test names).
set -uo pipefail
cd "$(dirname "$0")/../.."
strategies=${1:-pct,random,portfolio}
SEED=${SEED:-1}
ITERS=${ITERS:-1000}
BUDGET=${BUDGET:-20s}
ONLY=${ONLY:-}
tmp=$(mktemp -d /tmp/gopct-strategies.XXXX)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gopct" ./cmd/gopct && go build -o "$tmp/prepare" ./bench/goker/prepare || exit 2
"$tmp/prepare" -out "$tmp/hunt" -copies 1 >/dev/null || exit 2
IFS=, read -ra strats <<<"$strategies"
echo "GoKer kernels, gopct $(git rev-parse --short HEAD), SEED=$SEED ITERS=$ITERS BUDGET=$BUDGET, -race=false -workers 1; load at start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
printf '| kernel |'; printf ' %s |' "${strats[@]}"; echo
printf '|---|'; printf -- '---|%.0s' "${strats[@]}"; echo
declare -A found
for t in $("$tmp/prepare" -list); do
	if [ -n "$ONLY" ] && ! echo "$t" | grep -q -- "$ONLY"; then continue; fi
	row="| ${t#Test} |"
	for s in "${strats[@]}"; do
		# The summary goes through a file: a report's token can pass
		# Linux's limit on an argument's length.
		(cd "$tmp/hunt" && nice "$tmp/gopct" hunt -json -seed "$SEED" -iters "$ITERS" -budget "$BUDGET" \
			-workers 1 -race=false -strategy "$s" -run "^$t\$" . 2>"$tmp/err" | tail -n 1 >"$tmp/out")
		cell=$(python3 -c 'import json,sys
try:
    d = json.load(open(sys.argv[1])); b = d.get("bug")
    print("#%d" % b["execution"] if b else "none/%d" % d.get("executions", 0))
except Exception:
    print("error: " + open(sys.argv[2]).read().strip().splitlines()[-1][:80] if open(sys.argv[2]).read().strip() else "error")' "$tmp/out" "$tmp/err")
		[ "${cell#\#}" != "$cell" ] && found[$s]=$((${found[$s]:-0} + 1))
		row="$row $cell |"
	done
	echo "$row"
done
echo
for s in "${strats[@]}"; do echo "- $s: ${found[$s]:-0} kernels reported"; done
