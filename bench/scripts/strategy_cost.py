"""CPU per execution of the bench/overhead programs under pct, random and
portfolio, for two gopct binaries (e.g. before and after a change), each
cell the best of 2 rounds alternating the binaries, 6 executions per hunt.
Prints a markdown table.

Usage (from the repository root):
    python3 bench/scripts/strategy_cost.py OLD_GOPCT NEW_GOPCT
"""
import json, subprocess, sys
old, new = sys.argv[1], sys.argv[2]
def hunt(b, prog, strat, iters):
    out = subprocess.run([b, "hunt", "-strategy", strat, "-race=false", "-seed", "1", "-workers", "1", "-iters", str(iters), "-json", "-run", "^Test%s$" % prog, "./bench/overhead"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    d = json.loads(out); return d["cpuSeconds"] / max(1, d["executions"]) * 1000
print("| program | pct before → after | random before → after | portfolio before → after |")
print("|---|---|---|---|")
for prog in ["MergeSort", "HashSet", "MonteCarlo"]:
    cells = []
    for strat in ["pct", "random", "portfolio"]:
        b = {old: 1e9, new: 1e9}
        for _ in range(2):
            for x in (old, new):
                b[x] = min(b[x], hunt(x, prog, strat, 6))
        cells.append("%.1f → %.1f ms" % (b[old], b[new]))
    print("| %s | %s |" % (prog, " | ".join(cells)), flush=True)
