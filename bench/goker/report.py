#!/usr/bin/env python3
"""Writes docs/GOKER.md from bench/goker/run.sh's raw output.

usage: report.py OUTDIR VERDICTS KNOBS GOROOT

OUTDIR holds, per kernel test T: T.hunt.json (gopct's JSON lines),
T.hunt.exit.json, T.hunt-replay.json/.exit.json (when a bug was reported),
T.norace*.json (when the first report was a race: the hunt with -race=false),
T.native.txt (the test binary's -test.v output), T.native.exit.json and
T.native.time.json. VERDICTS has one line per kernel:
    TEST VERDICT REASON...
VERDICT is TRUE or FALSE for a bug report (is it the kernel's bug, a real
leak or deadlock?), MISS for a kernel gopct did not report, with the reason.
A report without a verdict is listed as UNCLASSIFIED, so nothing goes unseen.
The bug type of each kernel comes from the README Go ships with the kernels.
"""
import json
import os
import re
import sys


def load_json(path, default=None):
    try:
        lines = [l for l in open(path) if l.strip().startswith("{")]
        return json.loads(lines[-1]) if lines else default
    except (OSError, ValueError):
        return default


def load_verdicts(path):
    v = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        test, verdict, reason = (line.split(None, 2) + [""])[:3]
        v[test] = (verdict, reason)
    return v


def bug_types(readme):
    """Kernel name -> 'Type / Sub-type' from the README's tables."""
    types, name = {}, None
    for line in open(readme):
        m = re.match(r"## (\w+)/(\d+)", line)
        if m:
            name = m.group(1) + m.group(2)
            continue
        if name and line.startswith("|[") and name not in types:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            types[name] = " / ".join(cells[3:5])
    return types


def expected_leaks(test_go):
    """Kernel name -> [(function, wait-reason regexp)] of the leaks Go's own
    test expects (expected and flaky alike: all are true leaks). The function
    is the goroutine's entry function (the frame above `created by`), reduced
    to its last name: closures (.funcN, .gowrapN) take their enclosing
    function's name, methods lose their receiver."""
    text = open(test_go).read()
    text = text[text.index("gokerTestCases"):]
    leaks = {}
    for m in re.finditer(r'make(?:Flaky)?Test\("(\w+)",((?:\s*(?://[^\n]*\n)*\s*`[^`]*`,?)+)', text):
        pats = []
        for p in re.findall(r"`([^`]*)`", m.group(2)):
            fn = re.split(r"\\\(\.\*|\.\*", p)[0]
            fn = re.sub(r"\\?\.(func|gowrap)\d+(\\?\.\d+)*", "", fn)
            fn = re.split(r"\\?\.", fn.replace("\\)", "").replace("\\(", "").replace("\\*", "").replace("*", ""))[-1]
            reason = re.search(r"\\\[(.*)\\\]", p).group(1).replace("\\.", ".")
            pats.append((fn, reason))
        leaks[m.group(1)] = pats
    return leaks


def wait_reasons(waiting, source_line):
    """The wait reasons a Go traceback could print for gopct's 'waiting' text."""
    if waiting.startswith("blocked at receive") or waiting.startswith("blocked at range"):
        return ["chan receive"]
    if waiting.startswith("blocked at send"):
        return ["chan send"]
    if waiting.startswith("blocked in select"):
        # Go compiles a select of one case to a plain channel operation.
        return ["select", "chan receive", "chan send"]
    if waiting.startswith("waiting in WaitGroup.Wait"):
        return ["sync.WaitGroup.Wait"]
    if waiting.startswith("waiting in Cond.Wait"):
        return ["sync.Cond.Wait"]
    if waiting.startswith("waiting in Once.Do"):
        return ["sync.Mutex.Lock"]  # Once.Do waits on the Once's mutex
    if waiting.startswith("waiting for lock"):
        if ".RLock()" in source_line:
            return ["sync.RWMutex.RLock"]
        return ["sync.Mutex.Lock", "sync.RWMutex.Lock"]
    return []


def entry_names(funcs, created):
    """The possible entry functions of a goroutine started at 'file.go:L:C'
    (last names): the function enclosing the go statement (a closure or a
    gowrap), and the function the go statement calls."""
    parts = created.split(":")
    if len(parts) < 2 or parts[0] not in funcs:
        return []
    line, ff = int(parts[1]), funcs[parts[0]]
    names = [f["name"].split(".")[-1] for f in ff["funcs"] if f["first"] <= line <= f["last"]]
    names += [g["callee"] for g in ff["gos"] if g["line"] == line and g["callee"]]
    return names


def source_line(srcdir, at):
    parts = at.split(":")
    try:
        return open(os.path.join(srcdir, parts[0])).read().splitlines()[int(parts[1]) - 1]
    except (OSError, IndexError, ValueError):
        return ""


def check_leak(name, bug, leaks, funcs, srcdir):
    """Whether every goroutine gopct reports stuck matches a leak Go's own
    test expects of this kernel: 'yes', 'no (...)', or '-' (no list)."""
    pats = leaks.get(name)
    if pats is None or not bug or bug.get("kind") not in ("leak", "deadlock"):
        return "-"
    misses = []
    for g in bug.get("goroutines", []):
        if g.get("state") in ("returned", "done", "exited", "timer not fired") or "created" not in g:
            continue
        at = g.get("at", "")
        names = entry_names(funcs, g["created"])
        reasons = wait_reasons(g.get("waiting", ""), source_line(srcdir, at))
        if not any(fn == n and re.fullmatch(r, reason) for fn, r in pats for n in names for reason in reasons):
            misses.append("%s %s" % (g.get("id"), at))
    if len(misses) > 3:
        misses = misses[:3] + ["%d more" % (len(misses) - 3)]
    return "yes" if not misses else "no (%s)" % ", ".join(misses)


def hunt_cell(summary, code):
    if summary is None:
        return "exit %s" % code, None
    bug = summary.get("bug")
    if bug:
        return bug.get("kind", "?"), bug
    if code == 4:
        return "inconclusive", None
    if code == 2:
        return "exit 2", None
    return "ok", None


def replay_cell(out, test, run="hunt"):
    r = load_json(os.path.join(out, test + "." + run + "-replay.exit.json"))
    if r is None:
        return "-"
    return {1: "yes", 0: "passed", 3: "diverged", 2: "error"}.get(r["exit"], "exit %s" % r["exit"])


def native_listed(text, name, leaks):
    """Whether every leak the native check printed (GOKER-LEAKED fn [reason])
    matches Go's list for the kernel: 'yes', 'no (...)' or '-'."""
    pats = leaks.get(name)
    found = re.findall(r"GOKER-LEAKED (\S+) \[([^\]]*)\] x(\d+)", text)
    if pats is None or not found:
        return "-"
    misses = []
    for fn, reason, n in found:
        last = re.sub(r"\.(func|gowrap)\d+(\.\d+)*", "", fn).split(".")[-1].strip("()*")
        if not any(last == p and re.fullmatch(r, reason) for p, r in pats):
            misses.append("%s [%s] x%s" % (fn.replace("goker.", ""), reason, n))
    return "yes" if not misses else "no: " + "; ".join(misses)


def native_cell(out, test, name, leaks, run="native"):
    path = os.path.join(out, test + "." + run + ".txt")
    try:
        text = open(path).read()
    except OSError:
        return "-", False
    runs = text.count("=== RUN")
    secs = load_json(os.path.join(out, test + "." + run + ".time.json"), {}).get("ms", 0) / 1000
    if "GOKER-LEAK" in text:
        return "leak at run %d (%.1fs; in Go's list: %s)" % (runs, secs, native_listed(text, name, leaks)), True
    if "--- FAIL" in text or "panic:" in text:
        return "fail at run %d (%.1fs)" % (runs, secs), True
    return "none in %d runs (%.0fs)" % (max(runs - 1, 0), secs), False


def main():
    out, verdicts_path, knobs, goroot = sys.argv[1:5]
    verdicts = load_verdicts(verdicts_path)
    runtime = os.path.join(goroot, "src", "runtime")
    types = bug_types(os.path.join(runtime, "testdata", "testgoroutineleakprofile", "goker", "README.md"))
    leaks = expected_leaks(os.path.join(runtime, "goroutineleakprofile_test.go"))
    funcs = json.load(open(os.path.join(out, "funcs.json")))
    tests = sorted({f.split(".")[0] for f in os.listdir(out) if f.startswith("Test")})
    rows, t = [], {"kernels": 0, "found": 0, "replayed": 0, "native": 0, "both": 0,
                   "only_gopct": 0, "only_native": 0, "exit2": 0, "inconclusive": 0, "listed": 0, "native1": 0,
                   "only_gopct1": 0, "only_native1": 0, "native_unlisted": 0}
    kinds, verdict_count = {}, {}
    for test in tests:
        name = test[len("Test"):]
        summary = load_json(os.path.join(out, test + ".hunt.json"))
        code = load_json(os.path.join(out, test + ".hunt.exit.json"), {}).get("exit", "?")
        cell, bug = hunt_cell(summary, code)
        replay = replay_cell(out, test)
        native, native_found = native_cell(out, test, name, leaks)
        native1, native1_found = native_cell(out, test, name, leaks, "native1")
        t["native1"] += native1_found
        t["only_gopct1"] += bool(bug) and not native1_found
        t["only_native1"] += (not bug) and native1_found
        verdict, reason = verdicts.get(test, ("UNCLASSIFIED" if bug else "-", ""))
        listed = check_leak(name, bug, leaks, funcs, os.path.join(out, "src"))
        t["listed"] += listed == "yes"
        t["kernels"] += 1
        if bug:
            t["found"] += 1
            kinds[cell] = kinds.get(cell, 0) + 1
            t["replayed"] += replay == "yes"
        t["native"] += native_found
        t["native_unlisted"] += "in Go's list: no" in native
        t["both"] += bool(bug) and native_found
        t["only_gopct"] += bool(bug) and not native_found
        t["only_native"] += (not bug) and native_found
        t["exit2"] += cell == "exit 2"
        t["inconclusive"] += cell == "inconclusive"
        verdict_count[verdict] = verdict_count.get(verdict, 0) + 1
        execs = summary.get("executions", "") if summary else ""
        first = "#%d" % bug["execution"] if bug else "-"
        c = bug.get("preemptions", "") if bug else ""
        second = load_json(os.path.join(out, test + ".norace.json"))
        if second is not None:
            # The first report was a race: the hunt with -race=false.
            code2 = load_json(os.path.join(out, test + ".norace.exit.json"), {}).get("exit", "?")
            cell2, bug2 = hunt_cell(second, code2)
            cell += "; -race=false: " + cell2
            first += "; " + ("#%d" % bug2["execution"] if bug2 else "-")
            execs = "%s; %s" % (execs, second.get("executions", ""))
            c = "%s; %s" % (c, bug2.get("preemptions", "") if bug2 else "")
            replay += "; " + replay_cell(out, test, "norace")
            listed2 = check_leak(name, bug2, leaks, funcs, os.path.join(out, "src"))
            listed += "; " + listed2
            t["listed"] += listed2 == "yes"
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, types.get(name, "?"), cell, first, execs, c, replay, listed, native, native1, verdict, reason))
    print("# gopct on the GoKer blocking-bug kernels\n")
    print("Generated by `bash bench/goker/run.sh` (%s); raw output in `$OUT`, verdicts in" % knobs)
    print("`bench/goker/verdicts.txt`. The kernels are the 63 blocking bugs of GoKer (GoBench, Yuan et al.,")
    print("CGO'21) that Go 1.26 ships in `$GOROOT/src/runtime/testdata/testgoroutineleakprofile/goker`,")
    print("copied at run time into a scratch module (never into this repository) by `bench/goker/prepare`:")
    print("each registered function `NAME` becomes `func TestNAME(t *testing.T) { NAME() }`, the")
    print("goroutine-leak profile write does nothing, and for gopct the loops that start COPIES of the")
    print("kernel's goroutines for native stress runs start one copy (COPIES=1).\n")
    run = os.path.join(out, "knobs")
    if os.path.exists(run):
        print("Last pass of this run: `%s`.\n" % open(run).read().strip())
    print("- **gopct**: `gopct hunt -json -seed SEED -iters ITERS -budget BUDGET -run '^TestNAME$' .`; the")
    print("  kind of the first report, its execution index (`first`, from 0), the executions run, its")
    print("  preemptions `c`, and whether `gopct replay TOKEN` reproduced it (exit 1). When the first")
    print("  report is a data race, a second hunt with `-race=false` looks for the blocking bug (after `;`).")
    print("- **native**: the kernels as shipped (all their copies), `NAME.test -test.run '^TestNAME$'")
    print("  -test.count=1000000 -test.failfast` for NATIVE_BUDGET of wall time; after each run a")
    print("  goleak-style check fails the test when goroutines the kernel started (a `goker.` frame) are")
    print("  still blocked on a channel, select or sync primitive GRACE after it returned; `in Go's list`")
    print("  as for gopct, on the entry function and wait reason of each leaked goroutine.")
    print("- **native, 1 copy**: the same with one copy of each kernel, as gopct runs it, for")
    print("  NATIVE1_BUDGET.")
    print("- **in Go's list**: `yes` when every goroutine gopct reports stuck (its function, closures")
    print("  named by their enclosing function, and what it waits on) matches a leak that")
    print("  `$GOROOT/src/runtime/goroutineleakprofile_test.go` expects of the kernel (expected or flaky);")
    print("  `no (...)` names the goroutines that match none; `-` when Go's test does not list the kernel.")
    print("- **verdict**: TRUE = the report is the kernel's bug (checked against the README's description")
    print("  and the leak list of `$GOROOT/src/runtime/goroutineleakprofile_test.go`); FALSE = not the")
    print("  kernel's bug; MISS = not reported, with the reason.\n")
    print("## Totals\n")
    print("- kernels: %d; gopct reports: %d (%s), replayed: %d of %d" % (
        t["kernels"], t["found"], ", ".join("%s %d" % kv for kv in sorted(kinds.items())), t["replayed"], t["found"]))
    print("- reports whose every stuck goroutine matches a leak Go's own test expects of the kernel: %d" % t["listed"])
    print("- verdicts: %s" % ", ".join("%s %d" % kv for kv in sorted(verdict_count.items())))
    print("- gopct exit 2: %d; inconclusive: %d" % (t["exit2"], t["inconclusive"]))
    print("- native (as shipped, goleak-style check): %d found (%d of them not in Go's list); both: %d; gopct only: %d; native only: %d" % (
        t["native"], t["native_unlisted"], t["both"], t["only_gopct"], t["only_native"]))
    print("- native with one copy of each kernel (as gopct runs it): %d found; gopct only: %d; native only: %d\n" % (
        t["native1"], t["only_gopct1"], t["only_native1"]))
    print("## Kernels\n")
    print("| kernel | type (README) | gopct | first | executions | c | replay | in Go's list | native | native, 1 copy | verdict | reason |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)
    notes = os.path.join(os.path.dirname(verdicts_path), "notes.md")
    if os.path.exists(notes):
        print()
        print(open(notes).read().rstrip())


if __name__ == "__main__":
    main()
