#!/usr/bin/env bash
# What a hunt costs after the user edits a test: the edit-and-hunt loop.
# Two gopct binaries (OLD and NEW, e.g. two commits) each hunt one test of a
# real module with -iters 1 after an edit of its test file, alternately,
# ROUNDS times per kind of edit: a comment (no site moves) and a line
# inserted at the top of the test file (every test site moves). Each binary
# has a GOPCT_CACHE of its own, warmed by one hunt first; both share the go
# command's build cache. Prints user+system CPU seconds of gopct and its
# children (the go command, the compiler, the test binary) and wall seconds.
# Usage: bash bench/scripts/rebuild.sh OLD_GOPCT NEW_GOPCT [ROUNDS] [MOD@VER] [TEST]
set -euo pipefail
old=$1 new=$2 rounds=${3:-3}
mod=${4:-github.com/panjf2000/ants/v2@v2.12.1}
test=${5:-TestWithDisablePurgePoolFunc}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
src=$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
testfile=$(cd "$src" && grep -l "func $test(" ./*_test.go | head -1)
for which in old new; do
	cp -r "$src" "$tmp/$which"
	chmod -R u+w "$tmp/$which"
	mkdir -p "$tmp/cache-$which"
done
hunt() { # which -> "cpu wall"
	local which=$1 bin
	bin=$old
	[ "$which" = new ] && bin=$new
	(cd "$tmp/$which" && GOPCT_CACHE="$tmp/cache-$which" /usr/bin/time -f "%U %S %e" -o "$tmp/time" \
		"$bin" hunt -race=false -seed 1 -workers 1 -iters 1 -run "^$test\$" . >/dev/null 2>&1) || true
	awk '{printf "%.2f %.2f\n", $1 + $2, $3}' "$tmp/time"
}
for which in old new; do hunt $which >/dev/null; done # warm both caches
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "| edit | round | old CPU s | new CPU s | old wall s | new wall s |"
echo "|---|---|---|---|---|---|"
for edit in comment moves-sites; do
	for r in $(seq "$rounds"); do
		for which in old new; do
			f="$tmp/$which/$testfile"
			if [ $edit = comment ]; then
				echo "// edit $r" >>"$f"
			else
				sed -i "0,/^func /s//var _ = $r\n\nfunc /" "$f"
			fi
			read -r cpu wall < <(hunt $which)
			eval "${which}_cpu=$cpu ${which}_wall=$wall"
		done
		echo "| $edit | $r | $old_cpu | $new_cpu | $old_wall | $new_wall |"
	done
done
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
