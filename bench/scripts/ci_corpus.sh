#!/bin/sh
# gopct ci over the project's own corpus (issue 13's must-show): does a run
# end within its budget (±10%), and does it report every bug the corpus
# marks as findable?
#
# Usage: sh bench/scripts/ci_corpus.sh [BUDGET_SECONDS] [SEED]   (from the repository root)
#
# Runs `gopct ci -budget B -seed S -json ./...` in corpus/ twice with one
# fresh gopct cache (GOPCT_CACHE): cold (every package instrumented and
# linked; Go's own build cache is left as it is) and warm (every build
# comes from the cache; between the two, `gopct ci -iters 1` builds what
# the cold run had no time for). For each run it prints the wall-clock time against
# the budget, the load averages sampled every 5 s, and the bugs reported
# against the findable ones.
#
# Findable: a kernel's TestBug is findable when docs/BENCHMARKS.md records
# PCT (d=3, the strategy gopct ci runs) finding it in 5 of 5 seeds (all
# 51 kernels: at most 91 executions, a fraction of a second), and the run
# hunted it: a test whose package was still building when the budget ran
# out (reported "not run") is counted apart, as not findable at that
# budget on that machine. Every hunted TestBug must be reported, every
# TestFixed must pass (no false report), and the run must end within
# B ± 10%.
set -e
B=${1:-300}
SEED=${2:-1}
ROOT=$(pwd)
WORK=$(mktemp -d)
go build -o "$WORK/gopct" ./cmd/gopct
export GOPCT_CACHE="$WORK/cache"
python3 -u - "$WORK" "$B" "$SEED" "$ROOT" <<'PY'
import json, os, re, subprocess, sys, threading, time
work, budget, seed, root = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
kernels = json.load(open(os.path.join(root, "corpus/corpus.json")))
bench = open(os.path.join(root, "docs/BENCHMARKS.md")).read()

def pct_found_always(pkg, test):
    # the pct column of the kernel's row: "N / Ts (5/5)"
    for line in bench.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 5 and cells[1] == pkg and cells[2] == test:
            return cells[5].endswith("(5/5)")
    return False

findable = {(k["package"], k["bug_test"]) for k in kernels if pct_found_always(k["name"], k["bug_test"])}
fixed = {(k["package"], k["fixed_test"]) for k in kernels}

def load():
    return float(open("/proc/loadavg").read().split()[0])

def run(label):
    loads, done = [load()], threading.Event()
    def sample():
        while not done.wait(5):
            loads.append(load())
    threading.Thread(target=sample, daemon=True).start()
    t0 = time.monotonic()
    err = open(os.path.join(work, label + ".stderr"), "w")
    res = os.path.join(work, label + ".results.jsonl")
    p = subprocess.Popen([os.path.join(work, "gopct"), "ci", "-budget", f"{budget}s", "-seed", seed, "-results", res, "./..."],
                         cwd=os.path.join(root, "corpus"), stdout=subprocess.PIPE, stderr=err, text=True)
    lines = [(time.monotonic() - t0, l) for l in p.stdout]  # a line per test, as it ends
    p.wait()
    wall = time.monotonic() - t0
    done.set()
    err.close()
    loads.append(load())
    with open(os.path.join(work, label + ".out"), "w") as f:
        f.writelines(f"{t:7.2f} {l}" for t, l in lines)
    ss = [json.loads(l) for l in open(res)] if os.path.exists(res) else []
    by = {(s["package"], s["test"]): s for s in ss if not s.get("checkpoint")}
    notrun = set()
    for _, l in lines:
        m = re.match(r"\?     (\S+) (\S+): not run", l)
        if m:
            notrun.add((m[1], m[2]))
            by[(m[1], m[2])] = {"executions": 0, "bug": None, "seconds": 0}
    hunted = {k for k, s in by.items() if s["executions"] > 0 or s.get("bug")}
    reported = {k for k, s in by.items() if s.get("bug")}
    found = findable & reported
    missed = (findable & hunted) - reported
    unbuilt = findable & notrun
    noexec = findable - hunted - notrun  # hunted, but its share ended before an execution did
    false = fixed & reported
    execs = sorted(s["executions"] for k, s in by.items() if k in fixed and k in hunted)
    ok = abs(wall - budget) <= 0.1 * budget and not missed and not false
    print(f"{label}: {wall:.1f} s for a {budget} s budget ({100*(wall-budget)/budget:+.1f}%), exit {p.returncode}; "
          f"load {min(loads):.1f}-{max(loads):.1f} (mean {sum(loads)/len(loads):.1f}, {len(loads)} samples)")
    print(f"  tests: {len(by)} listed, {len(hunted)} hunted, {len(by)-len(hunted)} not run")
    print(f"  bugs: {len(found)} of {len(findable)} findable TestBug reported; hunted but missed: {len(missed)} "
          f"{sorted(t[0].split('/')[-1] for t in missed)}; not run (package still building): {len(unbuilt)}; no execution within its share: {len(noexec)}")
    print(f"  TestFixed: {len(fixed & hunted)} hunted, false reports: {len(false)} {sorted(t[0].split('/')[-1] for t in false)}; "
          f"executions each: min {execs[0] if execs else 0}, median {execs[len(execs)//2] if execs else 0}")
    if lines:
        print(f"  first test line at {lines[0][0]:.1f} s, last at {lines[-1][0]:.1f} s, exit at {wall:.1f} s; hunts took "
              f"{sum(s['seconds'] for s in by.values()):.1f} s in all (outputs: {work}/{label}.out, .results.jsonl, .stderr)")
    errs = [l for l in open(os.path.join(work, label + ".stderr")) if l.strip()]
    for l in errs[:5]:
        print("  stderr:", l.rstrip())
    print(f"  {'PASS' if ok else 'FAIL'}: within ±10% and every hunted findable bug reported, no false report")
    return ok

cold = run("cold")
# Fill the cache with the builds the cold run had no time for, so that the
# warm run is warm: every package built, one execution per test.
t0 = time.monotonic()
subprocess.run([os.path.join(work, "gopct"), "ci", "-budget", "1h", "-iters", "1", "-seed", seed, "./..."],
               cwd=os.path.join(root, "corpus"), capture_output=True)
print(f"fill: every package built in {time.monotonic()-t0:.1f} s (load {load():.1f})")
warm = run("warm")
sys.exit(0 if cold and warm else 1)
PY
