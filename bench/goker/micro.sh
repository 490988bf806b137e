#!/usr/bin/env bash
# gopct on the other leak tests Go 1.26 ships beside GoKer in
# $GOROOT/src/runtime/testdata/testgoroutineleakprofile: simple.go (one leak
# per primitive, and NoLeakGlobal), commonpatterns.go (leak patterns of
# Saioc et al., CGO'24) and stresstests.go (SpawnGC, DaisyChain). Like
# bench/goker/prepare, it copies them into a scratch module (never into this
# repository): package renamed, each registered function a test, and the
# goroutine-leak profile's writes dropped (pprof.Lookup("goroutineleak") is
# nil without GOEXPERIMENT=goroutineleakprofile). One hunt per test; the
# expected leaks are in $GOROOT/src/runtime/goroutineleakprofile_test.go.
# Usage: bash bench/goker/micro.sh   (GOPCT=binary to skip the build)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$(go env GOROOT)/src/runtime/testdata/testgoroutineleakprofile
DIR=$(mktemp -d /tmp/gopct-leakmicro.XXXX)
trap 'rm -rf "$DIR"' EXIT
GOPCT=${GOPCT:-$DIR/gopct}
[ -x "$GOPCT" ] || (cd "$REPO" && go build -o "$GOPCT" ./cmd/gopct)
cd "$DIR"
printf 'module leaks\n\ngo 1.26\n' >go.mod
for f in simple commonpatterns stresstests; do
	sed -e 's/^package main/package leaks/' \
		-e 's/prof\.WriteTo(\([^,]*\), 2)/_, _ = prof, \1/' "$SRC/$f.go" >"${f}_test.go"
done
names=$(grep -ho 'register("[A-Za-z0-9]*"' ./*_test.go | sed 's/register("//;s/"//')
{
	printf 'package leaks\n\nimport "testing"\n\nconst yieldCount = 10\n\nvar cmds = map[string]func(){}\n\n'
	printf 'func register(name string, f func()) { cmds[name] = f }\n'
	for n in $names; do printf '\nfunc Test%s(t *testing.T) { cmds["%s"]() }\n' "$n" "$n"; done
} >main_test.go
for n in $names; do
	out=$("$GOPCT" hunt -seed 1 -workers 1 -iters 300 -budget 20s -run "^Test$n\$" . 2>&1 || true)
	printf '%-24s %s\n' "$n" "$(echo "$out" | head -1 | cut -c1-110)"
	echo "$out" | sed -n '3p' | cut -c1-200 | sed 's/^/                           /'
done
