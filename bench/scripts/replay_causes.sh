#!/usr/bin/env bash
# Issue 8's "100 of 100 replays" per cause of non-replayable bugs: for each
# testscript that holds a program with one cause (package state carried
# between executions, the global math/rand sources, a source seeded at init,
# map iteration in a go1.21 file, hangs and livelocks), extract its module,
# run every hunt the script runs that finds a bug, and replay that bug
# N times, each replay in a fresh process.
# Usage: bash bench/scripts/replay_causes.sh [N]   (default 100)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gopct" ./cmd/gopct
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg). $n replays per bug."
echo
echo "| script (cause) | test | bug | replays |"
echo "|---|---|---|---|"
for script in ${SCRIPTS:-replay_package_state replay_rand replay_rand_init replay_map_go121 replay_hang}; do
	dir="$tmp/$script"
	python3 - "cmd/gopct/testdata/script/$script.txtar" "$dir" <<'PY'
import os, re, sys
src, out = sys.argv[1:]
name = None
for line in open(src):
    m = re.match(r'^-- (.+) --$', line.rstrip('\n'))
    if m:
        name = os.path.join(out, m.group(1))
        os.makedirs(os.path.dirname(name), exist_ok=True)
        open(name, 'w').close()
    elif name:
        open(name, 'a').write(line)
PY
	# Every hunt of the script that expects a bug (exit 1), as written there.
	grep -E '^exec wantexit 1 gopct hunt ' "cmd/gopct/testdata/script/$script.txtar" | sed 's/^exec wantexit 1 gopct hunt //' |
		while read -r args; do
			eval "set -- $args"
			(cd "$dir" && "$tmp/gopct" hunt "$@" | tail -1 >"$tmp/hunt.json") || true
			tok=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bug"]["replay"])' "$tmp/hunt.json")
			info=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["test"], "|", d["bug"]["kind"], "at #%d" % d["bug"]["execution"])' "$tmp/hunt.json")
			tally=$(cd "$dir" && "$tmp/gopct" replay -count "$n" "$tok" | grep '^REPLAYED' || true)
			echo "| $script | $info | ${tally#REPLAYED } |"
		done
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
