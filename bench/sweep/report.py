#!/usr/bin/env python3
"""Writes docs/SWEEP.md from the sweep's raw output (bench/sweep/sweep.sh).

usage: report.py OUTDIR VERDICTS KNOBS

OUTDIR holds one NAME.json (gopct's JSON lines, then the line the script
appends: {"exit", "module", "pkgdir", "name" | "ci"}) and one NAME.err per
run. VERDICTS has one line per report or exit 2 that was classified:
    MODULE@VERSION PKGDIR TEST VERDICT REASON...
A ci line's PKGDIR lists its packages joined by commas. VERDICT is TRUE or FALSE for a bug report; LEGIT, DEFECT or KNOWN for an
exit 2 (KNOWN: another helper of issue 9 or 8 is fixing it). A report or
exit 2 without a verdict is listed as UNCLASSIFIED, so nothing goes unseen.
"""
import glob
import json
import os
import re
import sys


def load_verdicts(path):
    v = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        mod, pkg, test, verdict, reason = line.split(None, 4)
        v[(mod, pkg, test)] = (verdict, reason)
    return v


def read_run(path):
    lines = [json.loads(l) for l in open(path) if l.strip().startswith("{")]
    meta = lines[-1] if lines and "exit" in lines[-1] else {"exit": "?"}
    return [l for l in lines if "test" in l], meta


def first_line(path):
    try:
        for l in open(path):
            l = l.strip()
            if l and not l.startswith("gopct ci: ") or "error" in l:
                return re.sub(r"/tmp/gopct-sweep-mods\.\w+/[^/ ]+", "$MOD", l)[:220]
    except OSError:
        pass
    return ""


def outcome(s, code):
    bug = s.get("bug")
    if bug:
        return "bug: %s" % bug.get("kind"), bug
    if code == 4:
        return "inconclusive", None
    return "ok", None


def row(mod, pkg, name, summary, code, err, verdicts, totals):
    key = (mod, pkg.replace(" ", ","), name)  # a ci line's packages, comma-joined in VERDICTS
    if summary is not None and not summary.get("bug") and not summary.get("executions"):
        # The budget ended before one execution did: nothing was tested.
        totals["tests"] += 1
        totals["nothunted"] += 1
        return "| %s | %s | %s | not hunted | 0 | 0 | - | no execution ended within the budget |" % (mod, pkg, name)
    if summary is None and code == 0:
        # gopct hunt exits 0 without a summary when -budget ran out (on the
        # build, on a loaded machine) before the test was hunted.
        totals["tests"] += 1
        totals["nothunted"] += 1
        return "| %s | %s | %s | not hunted | | | - | %s |" % (mod, pkg, name, err.replace("|", "\\|") or "-")
    if summary is None:
        out, bug, execs, fin = "exit %s" % code, None, "", ""
    else:
        out, bug = outcome(summary, code)
        execs, fin = summary.get("executions", ""), summary.get("finished", "")
    verdict, reason = verdicts.get(key, ("", ""))
    totals["tests"] += 1
    if bug:
        totals["reports"] += 1
        verdict = verdict or "UNCLASSIFIED"
        totals[verdict] = totals.get(verdict, 0) + 1
        if not reason:
            reason = (bug.get("message") or "").splitlines()[0][:160] if bug.get("message") else ""
    elif summary is None:
        totals["exit2"] += 1
        verdict = verdict or "UNCLASSIFIED"
        totals["exit2_" + verdict] = totals.get("exit2_" + verdict, 0) + 1
        reason = reason or err
    elif out == "inconclusive":
        totals["inconclusive"] += 1
    else:
        verdict, reason = "", ""  # a verdict is for a report or an exit 2 only
    cell = lambda x: str(x).replace("|", "\\|")
    return "| %s | %s | %s | %s | %s | %s | %s | %s |" % tuple(
        cell(x) for x in (mod, pkg, name, out, execs, fin, verdict or "-", reason or "-"))


def main():
    outdir, vpath, knobs = sys.argv[1:4]
    verdicts = load_verdicts(vpath)
    totals = {"tests": 0, "reports": 0, "exit2": 0, "inconclusive": 0, "nothunted": 0}
    hunts, cis = [], []
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        summaries, meta = read_run(path)
        err = first_line(path[:-5] + ".err")
        mod, pkg = meta.get("module", "?"), meta.get("pkgdir", "?")
        if meta.get("ci"):
            for s in summaries:
                cis.append(row(mod, s.get("package", pkg), s["test"], s, meta["exit"], err, verdicts, totals))
            if not summaries:
                cis.append(row(mod, pkg, "(all)", None, meta["exit"], err, verdicts, totals))
            elif meta["exit"] == 2:
                # A package that stopped gopct ci (a stall) has no summary of
                # its own: its exit 2 is a row too, so that it is classified.
                cis.append(row(mod, pkg, "(exit2)", None, 2, err, verdicts, totals))
            continue
        s = summaries[-1] if summaries else None
        hunts.append(row(mod, pkg, meta.get("name", "?"), s, meta["exit"], err, verdicts, totals))
    mods = {r.split(" | ")[0][2:] for r in hunts + cis}
    head = "| module@version | package | test | outcome | executions | finished | verdict | reason |\n|---|---|---|---|---|---|---|---|"
    print("# The sweep: gopct on popular modules' concurrency tests\n")
    print("Generated by `bash bench/sweep/sweep.sh` (%s); the modules, pinned versions and tests" % knobs)
    print("are in `bench/sweep/modules.txt`, the verdicts in `bench/sweep/verdicts.txt`.")
    print("Each test: `gopct hunt -json -seed SEED -iters ITERS -budget BUDGET -run '^TEST$' PKG` in a")
    print("writable copy of the module from the module cache. `finished`: executions that ran to their")
    print("end (the rest were given up at -max-steps or stopped by the budget).\n")
    print("## Totals\n")
    print("- modules: %d; test runs: %d (hunt: %d, from `gopct ci`: %d)" % (len(mods), totals["tests"], len(hunts), len(cis)))
    t, f, u = totals.get("TRUE", 0), totals.get("FALSE", 0), totals.get("UNCLASSIFIED", 0)
    print("- bug reports: %d — TRUE %d, FALSE %d, unclassified %d" % (totals["reports"], t, f, u))
    e = ", ".join("%s %d" % (k[6:], n) for k, n in sorted(totals.items()) if k.startswith("exit2_"))
    print("- exit 2 (no result): %d%s" % (totals["exit2"], " — " + e if e else ""))
    print("- inconclusive (exit 4): %d" % totals["inconclusive"])
    print("- not hunted (the -budget ran out in the build, or before one execution ended): %d\n" % totals["nothunted"])
    print("## Hunts\n")
    print(head)
    print("\n".join(hunts))
    if cis:
        print("\n## `gopct ci` over whole modules (budget CI_BUDGET each)\n")
        print(head)
        print("\n".join(cis))
    notes = os.path.join(os.path.dirname(vpath), "notes.md")
    if os.path.exists(notes):
        print()
        print(open(notes).read().rstrip())


main()
