#!/usr/bin/env bash
# Terminal executions per context bound with and without happens-before
# pruning (the shape of Table 1 of Musuvathi & Qadeer's POR paper), on the
# correct programs of bench/por. Prints Markdown.
# Usage: bash bench/scripts/por_table.sh [MAXC] > docs/POR.md
set -euo pipefail
cd "$(dirname "$0")/../.."
maxc=${1:-4}
go build -o /tmp/gopct-por ./cmd/gopct
for test in TestWorkStealing TestLockedCounters TestPipeline; do
	echo
	echo "### $test (bench/por)"
	echo
	echo "| c | executions, no pruning | executions, pruning | pruned | saved |"
	echo "|---|---|---|---|---|"
	full=$(/tmp/gopct-por explore -race=false -json -no-prune -c "$maxc" -run "^$test\$" ./bench/por | tail -1)
	pruned=$(/tmp/gopct-por explore -race=false -json -c "$maxc" -run "^$test\$" ./bench/por | tail -1)
	python3 - "$full" "$pruned" <<'PY'
import json, sys
full, pruned = (json.loads(a) for a in sys.argv[1:])
for f, p in zip(full["bounds"], pruned["bounds"]):
    saved = 100 * (1 - p["executed"] / f["executed"]) if f["executed"] else 0
    print("| %d | %d | %d | %d | %.0f%% |" % (f["bound"], f["executed"], p["executed"], p["pruned"], saved))
print()
print("Same outcome: %s (no pruning: %s; pruning: %s)" % (
    "yes" if (full["bug"] is None) == (pruned["bug"] is None) else "NO",
    "bug" if full["bug"] else "no bug, complete=%s" % full.get("complete", False),
    "bug" if pruned["bug"] else "no bug, complete=%s" % pruned.get("complete", False)))
PY
done
