"""PCTVB v=1 CPU per execution of MergeSort and HashSet (bench/overhead)
under two or more gopct binaries, best of 3 rounds alternating them: the
hunt of 2+21 executions minus that of 2, over 21 (no process start), as
beforeafter.py measures, for v=1 alone (a quick check of one change).

Usage (from the repository root):
    python3 bench/scripts/v1pair.py GOPCT_A GOPCT_B [...]
Environment: V (the v of PCTVB, default 1), PROGS (comma-separated, default
MergeSort,HashSet), ITERS (executions measured, default 21).
"""
import json, os, subprocess, sys

bins = sys.argv[1:]


def hunt(b, prog, iters):
    def run(n):
        out = subprocess.run([b, "hunt", "-strategy", "pctvb", "-v", os.environ.get("V", "1"), "-race=false", "-seed", "1", "-workers", "1",
                              "-iters", str(n), "-json", "-run", "^Test%s$" % prog, "./bench/overhead"],
                             capture_output=True, text=True).stdout.strip().splitlines()[-1]
        d = json.loads(out)
        return d["cpuSeconds"], d["executions"]
    (c0, e0), (c1, e1) = run(2), run(2 + iters)
    return (c1 - c0) / max(1, e1 - e0) * 1000


for prog in os.environ.get("PROGS", "MergeSort,HashSet").split(","):
    res = {b: [] for b in bins}
    for _ in range(3):
        for b in bins:
            res[b].append(hunt(b, prog, int(os.environ.get("ITERS", "21"))))
    print(prog, ", ".join("%s: %.2f ms" % (b, min(v)) for b, v in res.items()))
