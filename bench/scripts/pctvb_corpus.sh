#!/usr/bin/env bash
# PCTVB on the corpus: every kernel's TestBug with seed 1, one worker, under
# pctvb -v 1 and -v 2; one line per hunt: kernel|flags|executions kind execution.
# Usage: bash bench/scripts/pctvb_corpus.sh GOPCT > out.txt
# (compare two binaries' outputs line by line; docs/VBOUND.md, "Rounds").
set -uo pipefail
cd "$(dirname "$0")/../../corpus"
gopct=$(realpath "$1")
for k in */; do
	k=${k%/}
	for cfg in "-strategy pctvb -v 1" "-strategy pctvb -v 2"; do
		# shellcheck disable=SC2086
		r=$("$gopct" hunt -json -seed 1 -workers 1 $cfg -run '^TestBug$' "./$k" 2>&1 | tail -1 | python3 -c '
import json, sys
try:
    d = json.loads(sys.stdin.read())
    b = d.get("bug") or {}
    print(d.get("executions"), b.get("kind"), b.get("execution"))
except ValueError:
    print("none")')
		echo "$k|$cfg|$r"
	done
done
