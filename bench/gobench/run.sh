#!/usr/bin/env bash
# Runs GoBench's nonblocking GoKer kernels natively (go test -race, go test)
# and under gopct, and prints a table. No network: the kernels are read from a
# directory laid out as KERNELS/<name>/{go.mod,<name>_test.go} (see notes.md).
#
#   bash bench/gobench/run.sh /tmp/gobnb/kernels [name...]
#
# Environment (defaults in brackets):
#   GOPCT    gopct binary [built from this checkout into $OUT/gopct]
#   OUT      work and log directory [/tmp/gobnb/out]
#   N        native runs at most per mode [1000]
#   SECS     native seconds at most per mode [60]
#   BUDGET   gopct hunt budget [30s]
#   SEED     gopct seed [1]
#   WORKERS  gopct workers [1]
#   STRATEGY gopct strategy [pct]
#   NATIVE   0: skip the native runs [1]
#   HUNT     0: skip gopct [1]
#   REPLAYS  replays of each report [3]
#   HUNTFLAGS more gopct hunt flags, e.g. -gorace []
# Each native run is a fresh process of a test binary built once
# (go test -c), run with -test.run '^TestX$' -test.count=1; a run is a find
# when it exits non-zero (a race report, a panic, a failure, a 10 s timeout).
# Table columns: kernel | race: first find/runs | plain: first find/runs |
# gopct: executions to the report, kind, message, replays k/REPLAYS.
set -u
KDIR=${1:?usage: run.sh KERNELS_DIR [name...]}
shift
KDIR=$(cd "$KDIR" && pwd)
HERE=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/gobnb/out}
N=${N:-1000}
SECS=${SECS:-60}
BUDGET=${BUDGET:-30s}
SEED=${SEED:-1}
WORKERS=${WORKERS:-1}
STRATEGY=${STRATEGY:-pct}
NATIVE=${NATIVE:-1}
HUNT=${HUNT:-1}
REPLAYS=${REPLAYS:-3}
HUNTFLAGS=${HUNTFLAGS:-}
mkdir -p "$OUT"
if [ -z "${GOPCT:-}" ]; then
	GOPCT=$OUT/gopct
	(cd "$HERE" && go build -o "$GOPCT" ./cmd/gopct) || exit 2
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for d in "$KDIR"/*/; do names+=("$(basename "$d")"); done
fi

# native MODE NAME TEST: prints "first/runs" (first: the run that failed, or -)
native() {
	local mode=$1 name=$2 test=$3 bin="$OUT/$name.$1.test" log="$OUT/$name.$1.log"
	local flags=()
	[ "$mode" = race ] && flags=(-race)
	if ! (cd "$KDIR/$name" && go test -c "${flags[@]}" -o "$bin" . >"$log" 2>&1); then
		echo "build-error"
		return
	fi
	local i=0 start=$SECONDS
	while [ $i -lt "$N" ] && [ $((SECONDS - start)) -lt "$SECS" ]; do
		i=$((i + 1))
		if ! (cd "$KDIR/$name" && "$bin" -test.run "^$test\$" -test.count=1 -test.timeout=10s >"$log" 2>&1); then
			local what
			what=$(grep -m1 -oE 'WARNING: DATA RACE|panic: [^[]*|fatal error: [^[]*|--- FAIL' "$log" | head -1)
			echo "$i/$i ${what:-exit}"
			return
		fi
	done
	echo "-/$i"
}

hunt() {
	local name=$1 test=$2 js="$OUT/$name.gopct.json"
	(cd "$KDIR/$name" && "$GOPCT" hunt -seed "$SEED" -workers "$WORKERS" -strategy "$STRATEGY" \
		-budget "$BUDGET" $HUNTFLAGS -json -run "^$test\$" . >"$js" 2>"$OUT/$name.gopct.err")
	local rc=$?
	local sum
	sum=$(tail -1 "$js")
	if ! echo "$sum" | jq -e . >/dev/null 2>&1; then
		echo "error rc=$rc: $(tail -1 "$OUT/$name.gopct.err")"
		return
	fi
	if [ "$(echo "$sum" | jq -r '.bug != null')" != true ]; then
		echo "- ($(echo "$sum" | jq -r .executions) executions, rc=$rc)"
		return
	fi
	echo "$sum" | jq -r .bug.replay >"$OUT/$name.token"
	local k=0 j
	for j in $(seq "$REPLAYS"); do
		(cd "$KDIR/$name" && "$GOPCT" replay @"$OUT/$name.token" >"$OUT/$name.replay$j.out" 2>&1)
		head -1 "$OUT/$name.replay$j.out" | grep -q '^REPRODUCED' && k=$((k + 1))
	done
	echo "$sum" | jq -r --arg k "$k/$REPLAYS" \
		'"#\(.bug.execution + 1)/\(.executions) \(.bug.kind): \(.bug.message | gsub("\n"; " ") | .[0:70]) at \(.bug.at // "-") replays \($k)"'
}

printf '| kernel | go test -race | go test | gopct (%s, seed %s, %s) |\n|---|---|---|---|\n' "$STRATEGY" "$SEED" "$BUDGET"
for name in "${names[@]}"; do
	f=$(ls "$KDIR/$name"/*_test.go | head -1)
	test=$(grep -m1 -oE '^func (Test[A-Za-z0-9_]+)\(t \*testing\.T\)' "$f" | sed -E 's/^func (Test[A-Za-z0-9_]+).*/\1/')
	r=n/a p=n/a g=n/a
	if [ "$NATIVE" = 1 ]; then
		r=$(native race "$name" "$test")
		p=$(native plain "$name" "$test")
	fi
	[ "$HUNT" = 1 ] && g=$(hunt "$name" "$test")
	printf '| %s | %s | %s | %s |\n' "$name" "$r" "$p" "$g"
done
