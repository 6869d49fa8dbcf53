#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quality-paired.py — two settings of the quality runs compared on the same positions
(docs/benchmarks.md, "Which driver plays better at N threads"): paired statistics, which
see differences that the independent intervals of report.txt hide.

Each argument is SETTING=FILE, FILE a quality-positions.csv of `cutoff bench` or `cutoff
sim` (--quality-suite) and SETTING driver/threads (e.g. ybw/16), or FILE alone when it
holds one setting. For the first setting against each other one, over the positions both
searched:
  - the moves: how many agree with the reference's best in one and not the other (b, c),
    and McNemar's exact two-sided p-value (the binomial test of b against b + c);
  - the losses: the mean of the paired differences (first minus other, centipawns) with
    its 95 % interval (normal approximation).
A difference is shown as seen when p < 0.05, or when the loss interval excludes 0.

Usage: bench/quality-paired.py serial/1=A/quality-positions.csv ybw/16=B/quality-positions.csv ...
"""
import csv
import math
import sys


def read(arg):
    setting, _, path = arg.rpartition("=")
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            key = "%s/%s" % (r["driver"], r["threads"])
            if setting and key != setting:
                continue
            rows.setdefault(key, {})[r["position"]] = r
    if len(rows) != 1:
        sys.exit("quality-paired.py: %s holds %d settings (%s): name one as SETTING=FILE" %
                 (path, len(rows), ", ".join(sorted(rows)) or "none"))
    (key, per), = rows.items()
    folder = path.rsplit("/", 2)[-2] if path.count("/") else "."
    return "%s@%s" % (key, folder[-10:]), per


def mcnemar(b, c):
    """The exact two-sided p-value of b successes in b + c fair trials."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n  # exact integers: no overflow
    return min(1.0, 2 * tail)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("Usage: ")[1].strip())
    settings = [read(a) for a in sys.argv[1:]]
    base_key, base = settings[0]
    print("%-22s %-22s %5s %5s %5s %9s   %-26s %s" % ("first", "other", "pos", "b", "c",
                                                     "McNemar p", "loss first-other cp (95 %)",
                                                     "seen"))
    for key, other in settings[1:]:
        common = sorted(set(base) & set(other), key=int)
        b = sum(1 for p in common if base[p]["agree"] == "1" and other[p]["agree"] == "0")
        c = sum(1 for p in common if base[p]["agree"] == "0" and other[p]["agree"] == "1")
        d = [int(base[p]["loss_cp"]) - int(other[p]["loss_cp"]) for p in common]
        n = len(d)
        mean = sum(d) / n if n else float("nan")
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("nan")
        half = 1.959964 * sd / math.sqrt(n) if n > 1 else float("nan")
        p = mcnemar(b, c)
        seen = "yes" if p < 0.05 or (n > 1 and abs(mean) > half) else "no"
        print("%-22s %-22s %5d %5d %5d %9.3f   %+7.1f (%+7.1f .. %+7.1f)   %s" %
              (base_key, key, n, b, c, p, mean, mean - half, mean + half, seen))


if __name__ == "__main__":
    main()
