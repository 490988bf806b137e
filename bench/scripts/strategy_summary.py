#!/usr/bin/env python3
"""Summarise a `gopct bench` report that measured several strategies.

usage: strategy_summary.py BENCH.md

For each strategy column: the geometric mean of (median executions to the
first failure + 1) - 1 over the bugs, the largest median, their sum and the
bugs found in every run; then the bugs where the last column (the
portfolio) needs more than twice the better of the others, plus one.
"""
import math
import re
import sys


def cells(line):
    return [x.strip() for x in line.strip().strip("|").split("|")]


def main(path):
    header, rows = None, []
    for line in open(path):
        if line.startswith("|") and "package" in line and header is None:
            header = cells(line)
        elif "| TestBug" in line:
            rows.append(cells(line))
    strategies = header[4:]
    medians = {s: [] for s in strategies}
    always = {s: 0 for s in strategies}
    for r in rows:
        for s, c in zip(strategies, r[4:]):
            m = re.match(r"(\d+) / .*\((\d+)/(\d+)\)", c)
            medians[s].append(int(m.group(1)) if m else None)
            if m and m.group(2) == m.group(3):
                always[s] += 1
    print("| strategy | bugs found in every run | geometric mean of executions | largest median | sum of medians |")
    print("|---|---|---|---|---|")
    for s in strategies:
        xs = [x for x in medians[s] if x is not None]
        gm = math.exp(sum(math.log(x + 1) for x in xs) / len(xs)) - 1
        print("| %s | %d of %d | %.2f | %d | %d |" % (s, always[s], len(rows), gm, max(xs), sum(xs)))
    last, others = strategies[-1], strategies[:-1]
    worse = []
    for i, r in enumerate(rows):
        best = min(medians[s][i] for s in others if medians[s][i] is not None)
        if medians[last][i] is not None and medians[last][i] > 2 * best + 1:
            worse.append("%s (%s)" % (r[0], ", ".join("%s %d" % (s, medians[s][i]) for s in strategies)))
    print()
    print("%s needs more than twice the better of %s, plus one: %s" % (last, " and ".join(others), "; ".join(worse) or "none"))


if __name__ == "__main__":
    main(sys.argv[1])
