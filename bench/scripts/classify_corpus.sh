#!/usr/bin/env bash
# Classifies every corpus kernel (gopct classify -c 4, with and without
# happens-before pruning) and prints a Markdown table: the (c, v, t) the
# corpus claims, the one classify finds, and the schedules each search ran.
# Usage: bash bench/scripts/classify_corpus.sh > docs/CLASSIFY.md
# KERNELS="a b" limits it to those kernels.
set -euo pipefail
cd "$(dirname "$0")/../.."
go build -o /tmp/gopct-classify ./cmd/gopct
cd corpus
echo "| kernel | claimed (c,v,t) | classified (c,v,t) | kind | schedules (pruned search) | schedules (no pruning) | same bug |"
echo "|---|---|---|---|---|---|---|"
python3 -c 'import json; [print(k["name"], k["c"], k["v"], k["t"], k["bug_test"]) for k in json.load(open("corpus.json"))]' |
while read -r name c v t test; do
	if [ -n "${KERNELS:-}" ] && [[ " $KERNELS " != *" $name "* ]]; then
		continue
	fi
	p=$(timeout 300 /tmp/gopct-classify classify -json -c 4 -budget 120s -run "^${test}\$" "./$name" 2>/dev/null | tail -1 || true)
	n=$(timeout 300 /tmp/gopct-classify classify -json -c 4 -budget 120s -no-prune -run "^${test}\$" "./$name" 2>/dev/null | tail -1 || true)
	python3 - "$name" "$c" "$v" "$t" "$p" "$n" <<'PY'
import json, sys
name, c, v, t, p, n = sys.argv[1:]
def load(s):
    try:
        return json.loads(s)
    except Exception:
        return {}
p, n = load(p), load(n)
def cvt(r):
    if not r.get("bug"):
        return "not found up to c=%s" % r.get("maxC", "?") if r else "error"
    return "(%d,%d,%d)" % (r["c"], r["v"], r["t"])
kind = (p.get("bug") or {}).get("kind", "-")
same = "yes" if cvt(p) == cvt(n) and (p.get("bug") or {}).get("kind") == (n.get("bug") or {}).get("kind") else "NO"
print("| %s | (%s,%s,%s) | %s | %s | %s | %s | %s |" % (name, c, v, t, cvt(p), kind, p.get("executions", "-"), n.get("executions", "-"), same))
PY
done
