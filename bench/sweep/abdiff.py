"""Compare two sweeps of the same modules.txt lines (an A/B check of a
change on real code): each test's outcome in OUT_A and OUT_B, side by side,
for the tests whose outcome differs; then how many tests both sweeps ran.

An outcome is the bug's kind and message (cut), or "ok", "not hunted"
(no execution), or "exit N" for a run that gave no summary. The execution
that found a bug is shown beside it, but a bug found at another execution
only is not a difference: under a -budget the executions a hunt gets
through move with the machine's load. For the same reason a test hunted in
one sweep and not in the other (its share of a ci budget spent on builds)
is only counted.

Usage (from anywhere):
    python3 bench/sweep/abdiff.py OUT_A OUT_B
"""
import glob
import json
import os
import sys


def outcomes(out):
    """(file key, test) -> (outcome, execution) for every result in out."""
    res = {}
    for path in glob.glob(os.path.join(out, "*.json")):
        key = os.path.basename(path)[:-len(".json")]
        summaries, exit_code = [], None
        for line in open(path):
            line = line.strip()
            if not line:
                continue
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if "exit" in d and "module" in d:
                exit_code = d["exit"]
            elif "test" in d:
                summaries.append(d)
        for s in summaries:
            res[(key, s["test"])] = describe(s)
        if not summaries:
            res[(key, "-")] = ("exit %s" % exit_code, None)
    return res


def describe(s):
    bug = s.get("bug")
    if bug:
        msg = (bug.get("message") or "").split("\n")[0][:90]
        return ("%s: %s" % (bug.get("kind"), msg), bug.get("execution"))
    if not s.get("executions"):
        return ("not hunted", None)
    return ("ok", None)


def main():
    a, b = outcomes(sys.argv[1]), outcomes(sys.argv[2])
    common = sorted(set(a) & set(b))
    unhunted = [k for k in common if a[k][0] != b[k][0] and "not hunted" in (a[k][0], b[k][0])]
    differ = [k for k in common if a[k][0] != b[k][0] and k not in unhunted]
    for k in differ:
        print("%s %s\n  A: %s (#%s)\n  B: %s (#%s)" % (k[0], k[1], a[k][0], a[k][1], b[k][0], b[k][1]))
    print("%d results in both, %d differ, %d more hunted in one sweep only; only in A: %d, only in B: %d" %
          (len(common), len(differ), len(unhunted), len(set(a) - set(b)), len(set(b) - set(a))))


if __name__ == "__main__":
    main()
