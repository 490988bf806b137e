#!/usr/bin/env bash
# Race detection over the corpus: every kernel's TestBug and TestFixed, and
# every correct example, hunted with -race (the default) for 300 executions
# with seed 1. Prints one line per test: the kind found (or ok).
# Usage: bash bench/scripts/race_sweep.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
go build -o /tmp/gopct-race ./cmd/gopct
cd corpus
for k in */; do
	k=${k%/}
	[ -f "$k/kernel_test.go" ] || continue
	for t in TestBug TestFixed; do
		out=$(/tmp/gopct-race hunt -seed 1 -workers 1 -iters 300 -json -run "^$t\$" "./$k" 2>&1 | tail -1)
		echo "$k $t $(python3 -c 'import json,sys
try:
    d=json.loads(sys.argv[1]); b=d.get("bug")
    print(b["kind"] + " #" + str(b["execution"]) if b else "ok")
except Exception: print("ERROR " + sys.argv[1][:200])' "$out")"
	done
done
cd ../examples
python3 -c 'import json; [print(c["package"], c["test"], c["buggy"]) for c in json.load(open("cases.json"))]' |
while read -r pkg test buggy; do
	out=$(/tmp/gopct-race hunt -seed 1 -workers 1 -iters 300 -json -run "^$test\$" "./$pkg" 2>&1 | tail -1)
	echo "examples/$pkg $test buggy=$buggy $(python3 -c 'import json,sys
try:
    d=json.loads(sys.argv[1]); b=d.get("bug")
    print(b["kind"] + " #" + str(b["execution"]) if b else "ok")
except Exception: print("ERROR " + sys.argv[1][:200])' "$out")"
done
