#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quality-curves.py — the quality curves of one or several quality runs, gathered
(docs/benchmarks.md, "Which driver plays better at N threads").

A sweep of `cutoff sim --quality-suite` is often split over processes (one per thread
count); this reads their quality-positions.csv files together and prints, per driver and
thread count (a setting found in two files must have the same moves there: the runs are
deterministic, so a difference means the files do not belong together):
  - agree: the share of moves equal to the suite's reference (Wilson 95 % interval);
  - loss: the mean centipawn loss against the suite's reference (normal 95 % interval);
  - with --reference [DRIVER/THREADS=]FILE: "self", the share of moves equal to the move of that run (one
    setting, e.g. the serial search at a far larger budget: cutoff's own deeper choice),
    with its Wilson interval; positions the reference did not search are left out;
  - the mean depth thread 0 completed.
Then, at each thread count, each driver against --against (default ybw) on the same
positions, paired: McNemar's exact p for the moves (b: only the first agrees, c: only
the other) against the suite's reference, and against --reference's when given, and the
mean paired difference of the losses with its 95 % interval. The p-values are single
comparisons: among the many here, some fall under 0.05 by chance.

Usage: bench/quality-curves.py [--reference [DRIVER/THREADS=]FILE] [--against DRIVER] [--csv OUT] FILE...
"""
import argparse
import csv
import importlib.util
import math
import os
import sys

# McNemar's exact test, as bench/quality-paired.py computes it (one definition of it).
_spec = importlib.util.spec_from_file_location(
    "quality_paired", os.path.join(os.path.dirname(os.path.abspath(__file__)), "quality-paired.py"))
_paired = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_paired)
mcnemar = _paired.mcnemar

Z = 1.959964


def wilson(k, n):
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return c - h, c + h


def mean_half(xs):
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n == 1:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, Z * sd / math.sqrt(n)


def open_or_exit(path, mode="r"):
    """path opened (text, for csv), or the one-line error naming it and exit 1: a missing
    file, a folder or an unreadable one is said, not a traceback."""
    try:
        return open(path, mode, newline="")
    except OSError as e:
        sys.exit("quality-curves.py: %s: cannot %s it: %s" %
                 (path, "read" if mode == "r" else "write", e.strerror or e))


# The columns read of each quality-positions.csv line, and those that are integers.
COLUMNS = ("driver", "threads", "position", "depth", "move", "agree", "loss_cp")
INTEGERS = ("threads", "depth", "loss_cp")


def read_rows(path):
    """The lines of one quality-positions.csv, checked: the one-line error naming the file
    and the line and exit 1 for a file that is not one."""
    with open_or_exit(path) as f:
        try:
            rows = list(csv.DictReader(f))
        except (csv.Error, UnicodeDecodeError) as e:
            sys.exit("quality-curves.py: %s: not a quality-positions.csv: %s" % (path, e))
    for line, r in enumerate(rows, start=2):
        for c in COLUMNS:
            if r.get(c) is None or (c in INTEGERS and not r[c].lstrip("-").isdigit()):
                sys.exit("quality-curves.py: %s:%d: not a quality-positions.csv line (its "
                         "%s is %s)" % (path, line, c, "missing" if r.get(c) is None
                                        else repr(r[c])))
    return rows


def read(paths):
    """{(driver, threads): {position id: row}}; a setting in two files must match. Positions
    are told by their id, so runs on a suite and on a subset of it go together."""
    settings = {}
    for path in paths:
        for r in read_rows(path):
            key = (r["driver"], int(r["threads"]))
            per = settings.setdefault(key, {})
            name = r.get("id") or r["position"]
            old = per.get(name)
            if old is not None and old["move"] != r["move"]:
                sys.exit("quality-curves.py: %s/%d, position %s: move %s in one file, "
                         "%s in another (not the same runs)" %
                         (key[0], key[1], name, old["move"], r["move"]))
            per[name] = r
    return settings


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("Usage: ")[1].strip())
    ap.add_argument("--reference")
    ap.add_argument("--against", default="ybw")
    ap.add_argument("--csv")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    settings = read(a.files)
    if not settings:
        sys.exit("quality-curves.py: %s: no positions" % " ".join(a.files))
    ref = None
    if a.reference:
        name, _, path = a.reference.rpartition("=")
        rs = {k: v for k, v in read([path]).items() if not name or "%s/%d" % k == name}
        if len(rs) != 1:
            sys.exit("quality-curves.py: --reference %s holds %d settings: name one as "
                     "DRIVER/THREADS=FILE" % (a.reference, len(rs)))
        ((rkey, ref),) = rs.items()
        depth = sum(int(r["depth"]) for r in ref.values()) / len(ref)
        print("reference of 'self': %s/%d of %s, %d positions, mean depth %.2f" %
              (rkey[0], rkey[1], path, len(ref), depth))

    def self_agree(per, positions):
        return sum(1 for p in positions if per[p]["move"] == ref[p]["move"])

    rows = []
    print("%-8s %4s %4s %22s %20s %22s %6s" % ("driver", "thr", "pos", "agree (95 %)",
                                               "loss cp (95 %)", "self (95 %)", "depth"))
    for key in sorted(settings, key=lambda k: (k[0] != "serial", k[0], k[1])):
        per = settings[key]
        pos = [p for p in per if ref is None or p in ref]
        n = len(pos)
        k = sum(1 for p in pos if per[p]["agree"] == "1")
        lo, hi = wilson(k, n)
        lm, lh = mean_half([int(per[p]["loss_cp"]) for p in pos])
        depth = sum(int(per[p]["depth"]) for p in pos) / n if n else float("nan")
        row = {"driver": key[0], "threads": key[1], "positions": n, "agree": k,
               "agree_share": k / n if n else float("nan"), "agree_lo95": lo,
               "agree_hi95": hi, "loss_cp": lm, "loss_cp_half95": lh, "mean_depth": depth}
        selftext = ""
        if ref is not None:
            s = self_agree(per, pos)
            slo, shi = wilson(s, n)
            row.update({"self": s, "self_share": s / n, "self_lo95": slo, "self_hi95": shi})
            selftext = "%5.1f %% (%4.1f-%4.1f)" % (100 * s / n, 100 * slo, 100 * shi)
        rows.append(row)
        print("%-8s %4d %4d %6.1f %% (%4.1f-%4.1f) %7.1f +- %5.1f %22s %6.2f" %
              (key[0], key[1], n, 100 * k / n, 100 * lo, 100 * hi, lm, lh, selftext, depth))

    print("\npaired against %s at the same thread count (b: only the first agrees, c: only "
          "%s)" % (a.against, a.against))
    print("%-8s %4s %4s %5s %5s %8s %5s %5s %8s   %s" %
          ("driver", "thr", "pos", "b", "c", "p", "b", "c", "p self",
           "loss first-other cp (95 %)"))
    for key in sorted(settings):
        other = settings.get((a.against, key[1]))
        if key[0] in (a.against, "serial") or other is None:
            continue
        per = settings[key]
        pos = [p for p in per if p in other and (ref is None or p in ref)]
        b = sum(1 for p in pos if per[p]["agree"] == "1" and other[p]["agree"] == "0")
        c = sum(1 for p in pos if per[p]["agree"] == "0" and other[p]["agree"] == "1")
        selftext = ""
        if ref is not None:
            sb = sum(1 for p in pos if per[p]["move"] == ref[p]["move"] != other[p]["move"])
            sc = sum(1 for p in pos if other[p]["move"] == ref[p]["move"] != per[p]["move"])
            selftext = "%5d %5d %8.3f" % (sb, sc, mcnemar(sb, sc))
        dm, dh = mean_half([int(per[p]["loss_cp"]) - int(other[p]["loss_cp"]) for p in pos])
        print("%-8s %4d %4d %5d %5d %8.3f %20s   %+6.1f (%+6.1f .. %+6.1f)" %
              (key[0], key[1], len(pos), b, c, mcnemar(b, c), selftext, dm, dm - dh, dm + dh))

    if a.csv:
        with open_or_exit(a.csv, "w") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow({k: ("%.4f" % v if isinstance(v, float) else v)
                            for k, v in r.items()})


if __name__ == "__main__":
    main()
