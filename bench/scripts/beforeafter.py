"""Overhead before and after a change (issue 11): CPU per execution of the
bench/overhead programs under two gopct binaries, each cell the best of
ROUNDS rounds alternating the binaries, beside native CPU per execution
measured the same way in the same run (both without process start: the
difference of two runs' CPU, over the difference of their executions).
Prints a markdown table.

Usage (from the repository root):
    python3 bench/scripts/beforeafter.py OLD_GOPCT NEW_GOPCT [ROUNDS]
"""
import json, subprocess, sys, resource
old, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
import tempfile, os
bench = os.path.join(tempfile.mkdtemp(), "overhead.test")
subprocess.run(["go", "test", "-c", "-o", bench, "."], cwd="bench/overhead", check=True)
cfgs = [("pct v=0", ["-strategy","pctvb","-v","0"]), ("pctvb v=1", ["-strategy","pctvb","-v","1"]),
        ("pctvb v=2", ["-strategy","pctvb","-v","2"]), ("pct v=all", ["-strategy","pct"]), ("random v=all", ["-strategy","random"])]
def hunt(b, prog, cfg, iters):
    """CPU ms per execution, as native's: the hunt of 2+iters executions
    minus that of 2, over iters (no process start, one per variable set)."""
    def run(n):
        out = subprocess.run([b, "hunt", *cfg, "-race=false", "-seed", "1", "-workers", "1", "-iters", str(n), "-json", "-run", "^Test%s$" % prog, "./bench/overhead"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        d = json.loads(out); return d["cpuSeconds"], d["executions"]
    (c0, e0), (c1, e1) = run(2), run(2 + iters)
    return (c1 - c0) / max(1, e1 - e0) * 1000
def native(prog, n=10):
    def cpu(it):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([bench, "-test.run", "XXX", "-test.bench", "^Benchmark%s$" % prog, "-test.benchtime", "%dx" % it, "-test.cpu", "1"], cwd="bench/overhead", check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (cpu(4*n+1) - cpu(1)) / (4*n) * 1000
print("| program | native CPU | " + " | ".join("%s before → after" % c for c, _ in cfgs) + " |")
print("|---|---|" + "---|" * len(cfgs))
for prog in ["MergeSort", "HashSet", "MonteCarlo"]:
    nat = min(native(prog) for _ in range(rounds))
    cells = []
    for name, cfg in cfgs:
        iters = 3 if (name.startswith("random") and prog != "MonteCarlo") else 11
        b = {old: 1e9, new: 1e9}
        for _ in range(rounds):
            for x in (old, new):
                b[x] = min(b[x], hunt(x, prog, cfg, iters))
        cells.append("%.1f → %.1f ms (%.1fx → %.1fx)" % (b[old], b[new], b[old]/nat, b[new]/nat))
    print("| %s | %.1f ms | %s |" % (prog, nat, " | ".join(cells)), flush=True)
